import { describe, expect, it } from "vitest";
import { decimalNumber, isDecimalText, isoDateMs } from "./values.js";

describe("decimalNumber", () => {
  it("reads plain decimals", () => {
    expect(decimalNumber("18")).toBe(18);
    expect(decimalNumber("-2.5")).toBe(-2.5);
    expect(decimalNumber("0")).toBe(0);
    expect(decimalNumber("-0")).toBe(0);
    expect(decimalNumber("0.75")).toBe(0.75);
    expect(decimalNumber("123456789012345")).toBe(123456789012345);
  });

  it("keeps anything else as text", () => {
    for (const text of ["", "01310", "1e3", " 18", "18 ", "18,5", "+1", ".5", "5.", "Infinity", "NaN", "0x10", "1234567890123456", "--1", "1-"]) {
      expect(decimalNumber(text), text).toBeNull();
      expect(isDecimalText(text)).toBe(false);
    }
  });
});

describe("isoDateMs", () => {
  it("reads a date as midnight UTC", () => {
    expect(isoDateMs("2026-01-01")).toBe(Date.UTC(2026, 0, 1));
    expect(isoDateMs("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
  });

  it("reads date-times with Z or an offset", () => {
    expect(isoDateMs("2026-03-10T14:30Z")).toBe(Date.UTC(2026, 2, 10, 14, 30));
    expect(isoDateMs("2026-03-10T14:30:15-03:00")).toBe(Date.UTC(2026, 2, 10, 17, 30, 15));
    expect(isoDateMs("2026-03-10T14:30:15.123Z")).toBe(Date.UTC(2026, 2, 10, 14, 30, 15, 123));
    expect(isoDateMs("2026-03-10T14:30:15.5+01:30")).toBe(Date.UTC(2026, 2, 10, 13, 0, 15, 500));
    expect(isoDateMs(new Date(1_780_000_000_123).toISOString())).toBe(1_780_000_000_123);
  });

  it("refuses impossible dates, zone-less date-times and other text", () => {
    for (const text of ["2026-02-30", "2025-02-29", "2026-13-01", "2026-00-10", "2026-01-01T24:00Z", "2026-01-01T10:60Z", "2026-01-01T10:00", "2026-01-01T10:00+25:00", "2026-1-1", "20260101", "2026-01-01 10:00Z", "hoje", "2026-01-01Z"]) {
      expect(isoDateMs(text), text).toBeNull();
    }
  });
});
