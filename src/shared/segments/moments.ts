import type { SegmentTimeUnit } from "./tree.js";

/** `há mais de N dias`: a unit's length in ms (a day is 24 h, whatever the calendar's daylight saving). */
export const SEGMENT_UNIT_MS: Readonly<Record<SegmentTimeUnit, number>> = { hours: 3_600_000, days: 86_400_000, weeks: 604_800_000 };

/**
 * The moment a relative condition compares with: `há mais de N` holds before it (or never, for a
 * subscription never clicked), `há menos de N` at or after it.
 */
export function relativeCutoff(now: number, amount: number, unit: SegmentTimeUnit): number {
  return now - amount * SEGMENT_UNIT_MS[unit];
}
