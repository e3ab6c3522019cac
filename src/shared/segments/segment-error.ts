import type { ErrorCode } from "../errors.js";

/**
 * Why an expression was refused: the API error code, where (0-based character offset in the
 * text form; -1 for a JSON tree or the whole text), and a key of the `segments` catalog namespace
 * that says what was expected there, with its interpolation params.
 */
export interface SegmentError {
  readonly code: Extract<ErrorCode, `segment_${string}`>;
  readonly position: number;
  readonly reason: string;
  readonly params?: Readonly<Record<string, string | number>>;
}

export type SegmentResult<T> = { readonly ok: true; readonly tree: T } | { readonly ok: false; readonly error: SegmentError };

export function segmentError(code: SegmentError["code"], position: number, reason: string, params?: Record<string, string | number>): SegmentError {
  return params === undefined ? { code, position, reason } : { code, position, reason, params };
}
