import { describe, expect, it } from "vitest";
import { MAX_RETRY_AFTER_MS, WEBHOOK_RETRY_DELAYS_MS, nextRetryDelay, parseRetryAfter } from "./retry-schedule.js";

describe("webhook retry schedule", () => {
  it("backs off from 5 s to 8 h with ±20% jitter, then gives up after the tenth attempt", () => {
    expect(nextRetryDelay(1, undefined, () => 0.5)).toBe(5_000);
    expect(nextRetryDelay(1, undefined, () => 0)).toBe(4_000);
    expect(nextRetryDelay(1, undefined, () => 1)).toBe(6_000);
    expect(nextRetryDelay(9, undefined, () => 0.5)).toBe(28_800_000);
    expect(nextRetryDelay(10, undefined)).toBeUndefined();
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total / 3_600_000).toBeCloseTo(15.7, 1);
  });

  it("waits at least as long as the receiver's Retry-After, up to a day", () => {
    expect(nextRetryDelay(1, 120_000, () => 0.5)).toBe(120_000);
    expect(nextRetryDelay(1, 1_000, () => 0.5)).toBe(5_000);
    expect(nextRetryDelay(1, 10 * MAX_RETRY_AFTER_MS, () => 0.5)).toBe(MAX_RETRY_AFTER_MS);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.UTC(2026, 0, 1, 12);
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
