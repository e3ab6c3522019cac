/** The numbers behind every retry decision, in one place. */
export interface RetryPolicy {
  /** Attempts per message and subscription, the first included. */
  readonly maxAttempts: number;
  /** Backoff before the 2nd attempt; doubles each time after. */
  readonly baseDelayMs: number;
  /** Ceiling of the exponential backoff. */
  readonly maxDelayMs: number;
  /** A Retry-After further away than this is clamped to it (a push service asking for a day). */
  readonly maxRetryAfterMs: number;
  /** A Retry-After of 0 or in the past still waits this long, so a 429 loop cannot spin. */
  readonly minRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
  maxRetryAfterMs: 60 * 60_000,
  minRetryAfterMs: 1_000,
};

/**
 * Exponential backoff with "equal jitter": half the delay fixed, half random, so workers retrying
 * after the same outage do not come back in lockstep. `attempt` is the attempt that just failed
 * (1-based); `random` returns [0, 1).
 */
export function backoffDelayMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
