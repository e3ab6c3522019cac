/**
 * When a failed webhook delivery is tried again: after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h,
 * 4 h and 8 h (about 15.7 hours in all, ten attempts), each delay with ±20% jitter so that the
 * messages of one outage do not come back in one burst. After the last, the message is failed
 * (the Painel can still resend it).
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];

/** A receiver's Retry-After is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * The delay before the next attempt, after `attempts` attempts failed (1 after the first), or
 * undefined when that was the last. A `Retry-After` (RFC 9110 §10.2.3) longer than the backoff wins.
 */
export function nextRetryDelay(attempts: number, retryAfterMs: number | undefined, random: () => number = Math.random): number | undefined {
  const base = WEBHOOK_RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return undefined;
  const jittered = Math.round(base * (0.8 + 0.4 * random()));
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, MAX_RETRY_AFTER_MS));
}

/** `Retry-After` as delay-seconds or an HTTP-date, in ms from `now`; undefined if absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === "") return undefined;
  if (/^\s*\d+\s*$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
