import type { ErrorCode } from "../../../shared/errors.js";

/**
 * A refused or failed dashboard API call. `status` 0 means no HTTP answer at all (network down,
 * server stopped); `message` is then empty and the page shows its own pt-BR text. `code` is the
 * server's error code, or undefined when the answer carried none this build knows (no answer, a
 * proxy's page, a code from a newer server).
 */
export class DashboardApiError extends Error {
  override readonly name = "DashboardApiError";
  constructor(
    readonly status: number,
    readonly code: ErrorCode | undefined,
    message: string,
    /** The request field the server blamed (`email`, `title`…), to show the error beside it. */
    readonly field?: string,
    /** A refused segment expression: the 0-based offset in its text the server blamed. */
    readonly position?: number,
  ) {
    super(message);
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
}

export function isDashboardApiError(error: unknown): error is DashboardApiError {
  return error instanceof DashboardApiError;
}
