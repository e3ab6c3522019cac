import { describe, expect, it } from "vitest";
import { classifyResponse, parseRetryAfter, type ClassifyInput } from "./classify-response.js";
import { backoffDelayMs, DEFAULT_RETRY_POLICY } from "./retry-policy.js";

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const DAY = 86_400_000;
const base = { now: NOW, attempt: 1, ttlDeadline: NOW + DAY, random: () => 0.5 };

function classify(partial: Partial<ClassifyInput>) {
  return classifyResponse({ ...base, ...partial });
}

describe("classifyResponse: one row per answer", () => {
  // backoff for attempt 1 with random 0.5: ceiling 2000 → 1000 + 0.5 * 1000.
  const backoff1 = NOW + 1500;
  const rows: Array<[string, Partial<ClassifyInput>, unknown]> = [
    ["201 Created", { status: 201 }, { kind: "ok" }],
    ["202 Accepted", { status: 202 }, { kind: "ok" }],
    ["200 OK (some services)", { status: 200 }, { kind: "ok" }],
    ["204 No Content", { status: 204 }, { kind: "ok" }],
    ["404 Not Found", { status: 404 }, { kind: "gone" }],
    ["410 Gone", { status: 410 }, { kind: "gone" }],
    ["429 with Retry-After: 120", { status: 429, headers: { "retry-after": "120" } }, { kind: "retry", at: NOW + 120_000, reason: "rate_limited" }],
    ["503 with an HTTP-date", { status: 503, headers: { "retry-after": new Date(NOW + 30_000).toUTCString() } }, { kind: "retry", at: NOW + 30_000, reason: "unavailable" }],
    ["429 without Retry-After", { status: 429 }, { kind: "retry", at: backoff1, reason: "rate_limited" }],
    ["429 with garbage Retry-After", { status: 429, headers: { "retry-after": "soon" } }, { kind: "retry", at: backoff1, reason: "rate_limited" }],
    ["429 with Retry-After: 0 (clamped up)", { status: 429, headers: { "retry-after": "0" } }, { kind: "retry", at: NOW + 1000, reason: "rate_limited" }],
    ["503 with a date in the past (clamped up)", { status: 503, headers: { "retry-after": new Date(NOW - 60_000).toUTCString() } }, { kind: "retry", at: NOW + 1000, reason: "unavailable" }],
    ["429 asking for two days (clamped down)", { status: 429, headers: { "retry-after": String(2 * 86400) }, ttlDeadline: NOW + 7 * DAY }, { kind: "retry", at: NOW + 3_600_000, reason: "rate_limited" }],
    ["500", { status: 500 }, { kind: "retry", at: backoff1, reason: "server_error" }],
    ["502", { status: 502 }, { kind: "retry", at: backoff1, reason: "server_error" }],
    ["504", { status: 504 }, { kind: "retry", at: backoff1, reason: "server_error" }],
    ["408", { status: 408 }, { kind: "retry", at: backoff1, reason: "request_timeout" }],
    ["timeout", { error: "timeout" }, { kind: "retry", at: backoff1, reason: "timeout" }],
    ["connection reset", { error: "reset" }, { kind: "retry", at: backoff1, reason: "reset" }],
    ["connection refused", { error: "refused" }, { kind: "retry", at: backoff1, reason: "refused" }],
    ["DNS failure", { error: "dns" }, { kind: "retry", at: backoff1, reason: "dns" }],
    ["TLS failure", { error: "tls" }, { kind: "retry", at: backoff1, reason: "tls" }],
    ["400", { status: 400 }, { kind: "fatal", reason: "bad_request" }],
    ["401", { status: 401 }, { kind: "fatal", reason: "unauthorized" }],
    ["403 (VAPID mismatch) flags the subscription", { status: 403 }, { kind: "fatal", reason: "vapid_mismatch", flag: "vapid_mismatch" }],
    ["413", { status: 413 }, { kind: "fatal", reason: "payload_too_large" }],
    ["301 redirect is not followed", { status: 301, headers: { location: "https://evil.example/" } }, { kind: "fatal", reason: "redirect" }],
    ["307 redirect is not followed", { status: 307, headers: { location: "https://127.0.0.1/" } }, { kind: "fatal", reason: "redirect" }],
    ["other 4xx", { status: 405 }, { kind: "fatal", reason: "client_error" }],
    ["1xx/odd status", { status: 102 }, { kind: "fatal", reason: "unexpected_status" }],
    ["blocked private address", { error: "blocked_address" }, { kind: "fatal", reason: "blocked_address" }],
    ["blocked endpoint", { error: "blocked_endpoint" }, { kind: "fatal", reason: "blocked_endpoint" }],
    ["500 on the last allowed attempt", { status: 500, attempt: 8 }, { kind: "fatal", reason: "attempts_exhausted" }],
    ["429 on the last allowed attempt", { status: 429, attempt: 8, headers: { "retry-after": "1" } }, { kind: "fatal", reason: "attempts_exhausted" }],
    ["500 when the backoff ends past the TTL", { status: 500, ttlDeadline: NOW + 1000 }, { kind: "fatal", reason: "ttl_expired" }],
    ["429 whose Retry-After ends past the TTL", { status: 429, headers: { "retry-after": "60" }, ttlDeadline: NOW + 59_000 }, { kind: "fatal", reason: "ttl_expired" }],
    ["a TTL-0 message is never retried", { error: "timeout", ttlDeadline: NOW }, { kind: "fatal", reason: "ttl_expired" }],
    ["retry exactly at the TTL deadline is allowed", { status: 429, headers: { "retry-after": "60" }, ttlDeadline: NOW + 60_000 }, { kind: "retry", at: NOW + 60_000, reason: "rate_limited" }],
  ];
  it.each(rows)("%s", (_name, input, expected) => {
    expect(classify(input)).toEqual(expected);
  });
});

describe("backoff", () => {
  it("doubles per attempt up to the ceiling, with half of it jittered", () => {
    const p = DEFAULT_RETRY_POLICY;
    expect(backoffDelayMs(1, p, () => 0)).toBe(1000);
    expect(backoffDelayMs(1, p, () => 0.999999)).toBe(2000);
    expect(backoffDelayMs(2, p, () => 0)).toBe(2000);
    expect(backoffDelayMs(3, p, () => 0)).toBe(4000);
    expect(backoffDelayMs(20, p, () => 0)).toBe(p.maxDelayMs / 2);
    expect(backoffDelayMs(20, p, () => 0.999999)).toBe(p.maxDelayMs);
  });
  it("uses the injected random number for the jitter", () => {
    const a = classify({ status: 500, attempt: 3, random: () => 0.1 });
    const b = classify({ status: 500, attempt: 3, random: () => 0.9 });
    expect(a).toEqual({ kind: "retry", at: NOW + 4000 + 400, reason: "server_error" });
    expect(b).toEqual({ kind: "retry", at: NOW + 4000 + 3600, reason: "server_error" });
  });
});

describe("parseRetryAfter", () => {
  it.each([
    ["120", 120_000],
    [" 7 ", 7_000],
    ["0", 0],
    [new Date(NOW + 90_000).toUTCString(), 90_000],
    ["Wednesday, 15-Jan-25 12:01:00 GMT", 60_000],
    ["Wed Jan 15 12:02:00 2025", 120_000],
    ["Wed Jan  5 12:02:00 2025", 120_000 - 10 * 86_400_000],
    ["Someday, garbage", undefined],
    ["-5", undefined],
    ["1.5", undefined],
    ["", undefined],
  ])("%j → %s", (value, expected) => {
    expect(parseRetryAfter(value, NOW)).toBe(expected);
  });
  it("is undefined when the header is absent", () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});
