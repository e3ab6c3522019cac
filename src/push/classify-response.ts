import { backoffDelayMs, DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
import type { TransportErrorKind } from "./transport-error.js";

export type FatalReason =
  | "bad_request"
  | "unauthorized"
  | "vapid_mismatch"
  | "payload_too_large"
  | "redirect"
  | "client_error"
  | "unexpected_status"
  | "blocked_address"
  | "blocked_endpoint"
  | "ttl_expired"
  | "attempts_exhausted";

export type RetryReason =
  | "rate_limited"
  | "unavailable"
  | "server_error"
  | "request_timeout"
  | Exclude<TransportErrorKind, "blocked_address" | "blocked_endpoint">;

export type Classification =
  | { kind: "ok" }
  /** The subscription no longer exists: remove it (RFC 8030 §7.3, 404/410). */
  | { kind: "gone" }
  | { kind: "retry"; at: number; reason: RetryReason }
  /**
   * No retry. `flag` marks the subscription for the operator: a 403 means the subscription was
   * made with another VAPID key (RFC 8292 §4.2), which no retry and no removal will fix.
   */
  | { kind: "fatal"; reason: FatalReason; flag?: "vapid_mismatch" };

export interface ClassifyInput {
  /** HTTP status, when a response arrived. */
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string | string[] | number | undefined>>;
  /** Transport failure, when no response arrived. */
  readonly error?: TransportErrorKind;
  /** Milliseconds since the epoch. */
  readonly now: number;
  /** The attempt that just ended, 1-based. */
  readonly attempt: number;
  /** When the message's TTL runs out (ms since epoch): no retry is scheduled past it. */
  readonly ttlDeadline: number;
  readonly policy?: RetryPolicy;
  /** [0, 1); injectable so tests can pin the jitter. */
  readonly random?: () => number;
}

/**
 * The one place that decides what a push service's answer means. Any 2xx is success: RFC 8030
 * §5 says 201 (202 with a receipt request) but some services have answered 200, and resending an
 * accepted message would only duplicate it. Only 404/410 remove a subscription.
 */
export function classifyResponse(input: ClassifyInput): Classification {
  const policy = input.policy ?? DEFAULT_RETRY_POLICY;
  const random = input.random ?? Math.random;

  if (input.error !== undefined) {
    if (input.error === "blocked_address" || input.error === "blocked_endpoint") {
      return { kind: "fatal", reason: input.error };
    }
    return retryAt(input, input.now + backoffDelayMs(input.attempt, policy, random), input.error, policy);
  }

  const status = input.status ?? 0;
  if (status >= 200 && status < 300) return { kind: "ok" };
  if (status === 404 || status === 410) return { kind: "gone" };
  if (status === 429 || status === 503) {
    const after = parseRetryAfter(header(input.headers, "retry-after"), input.now);
    const delay =
      after === undefined
        ? backoffDelayMs(input.attempt, policy, random)
        : Math.min(policy.maxRetryAfterMs, Math.max(policy.minRetryAfterMs, after));
    return retryAt(input, input.now + delay, status === 429 ? "rate_limited" : "unavailable", policy);
  }
  if (status >= 500 && status < 600) {
    return retryAt(input, input.now + backoffDelayMs(input.attempt, policy, random), "server_error", policy);
  }
  if (status === 408) {
    return retryAt(input, input.now + backoffDelayMs(input.attempt, policy, random), "request_timeout", policy);
  }
  if (status === 400) return { kind: "fatal", reason: "bad_request" };
  if (status === 401) return { kind: "fatal", reason: "unauthorized" };
  if (status === 403) return { kind: "fatal", reason: "vapid_mismatch", flag: "vapid_mismatch" };
  if (status === 413) return { kind: "fatal", reason: "payload_too_large" };
  // Redirects are never followed: the Location would be an address nobody checked.
  if (status >= 300 && status < 400) return { kind: "fatal", reason: "redirect" };
  if (status >= 400 && status < 500) return { kind: "fatal", reason: "client_error" };
  return { kind: "fatal", reason: "unexpected_status" };
}

function retryAt(input: ClassifyInput, at: number, reason: RetryReason, policy: RetryPolicy): Classification {
  if (input.attempt >= policy.maxAttempts) return { kind: "fatal", reason: "attempts_exhausted" };
  // A message the push service would drop anyway must not be sent after its TTL (RFC 8030 §5.2).
  if (at > input.ttlDeadline) return { kind: "fatal", reason: "ttl_expired" };
  return { kind: "retry", at, reason };
}

/**
 * RFC 9110 §10.2.3: `Retry-After` is delta-seconds or an HTTP-date. Returns the delay in ms
 * (possibly negative for a date in the past), or undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // Only the three HTTP-date forms; Date.parse alone would take "-5" or "1.5" for dates. The
  // obsolete asctime form carries no zone but is GMT by definition (RFC 9110 §5.6.7).
  let at: number;
  if (/^[A-Za-z]{3}, \d/.test(text) || /^[A-Za-z]+day, \d/.test(text)) at = Date.parse(text);
  else if (/^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text)) at = Date.parse(`${text} GMT`);
  else return undefined;
  return Number.isNaN(at) ? undefined : at - now;
}

function header(headers: ClassifyInput["headers"], name: string): string | undefined {
  const value = headers?.[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined ? undefined : String(first);
}
