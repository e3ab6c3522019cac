import { describe, expect, it } from "vitest";
import { canonicalTags, isoDateMs, isValidTagKey, isValidTagValue, tagValueOf, typedTagValue } from "./tag-rule.js";

describe("tag rules", () => {
  it.each([
    ["plano", true],
    ["a.b_c-9", true],
    ["x".repeat(64), true],
    ["x".repeat(65), false],
    ["", false],
    ["Plano", false],
    ["ação", false],
    ["a b", false],
    ["a=b", false],
  ])("key %j valid: %s", (key, valid) => {
    expect(isValidTagKey(key)).toBe(valid);
  });

  it.each([
    ["premium", true],
    ["São Paulo", true],
    ["🔔".repeat(255), true],
    ["x".repeat(256), false],
    ["", false],
    [" premium", false],
    ["premium ", false],
    ["a\nb", false],
    ["a\u0000b", false],
    ["a\u2028b", false],
    [18, true],
    [-2.5, true],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    [true, true],
    [false, false],
    [null, false],
    [{}, false],
  ])("value %j valid: %s", (value, valid) => {
    expect(isValidTagValue(value)).toBe(valid);
  });

  it("types values: numbers, decimal strings, ISO dates, key-only", () => {
    expect(typedTagValue(true)).toEqual({ value: null, num: null, time: null });
    expect(typedTagValue(18)).toEqual({ value: "18", num: 18, time: null });
    expect(typedTagValue("-2.5")).toEqual({ value: "-2.5", num: -2.5, time: null });
    expect(typedTagValue("018")).toEqual({ value: "018", num: null, time: null });
    expect(typedTagValue("2026-01-31")).toEqual({ value: "2026-01-31", num: null, time: Date.UTC(2026, 0, 31) });
    expect(typedTagValue("premium")).toEqual({ value: "premium", num: null, time: null });
  });

  it("reads ISO dates and date-times with offsets, and nothing else", () => {
    expect(isoDateMs("2026-01-31T10:00:00-03:00")).toBe(Date.UTC(2026, 0, 31, 13));
    expect(isoDateMs("2026-01-31T10:00Z")).toBe(Date.UTC(2026, 0, 31, 10));
    expect(isoDateMs("2026-02-30")).toBeNull();
    expect(isoDateMs("2026-01-31T10:00:00")).toBeNull();
    expect(isoDateMs("31/01/2026")).toBeNull();
  });

  it("gives numbers back as numbers only when their text is canonical", () => {
    expect(tagValueOf({ value: "18", num: 18 })).toBe(18);
    expect(tagValueOf({ value: "18.0", num: 18 })).toBe("18.0");
    expect(tagValueOf({ value: null, num: null })).toBe(true);
  });

  it("writes the signed text with sorted keys, one tag per line", () => {
    expect(canonicalTags({ plano: "premium", idade: 18, vip: true })).toBe("idade=18\nplano=premium\nvip");
    expect(canonicalTags({})).toBe("");
  });
});
