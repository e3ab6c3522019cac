import { describe, expect, it } from "vitest";
import { epochToWallTime, wallClockToEpoch, wallTimeToEpoch } from "./zoned-time.js";

describe("wall time in a named zone", () => {
  it("reads 14:00 in São Paulo as 17:00 UTC (no DST since 2019)", () => {
    expect(new Date(wallTimeToEpoch({ date: "2025-07-10", time: "14:00" }, "America/Sao_Paulo")!).toISOString()).toBe("2025-07-10T17:00:00.000Z");
  });

  it("uses the offset in force on that date across a DST change (New York, March and November)", () => {
    expect(new Date(wallTimeToEpoch({ date: "2025-01-15", time: "09:30" }, "America/New_York")!).toISOString()).toBe("2025-01-15T14:30:00.000Z");
    expect(new Date(wallTimeToEpoch({ date: "2025-07-15", time: "09:30" }, "America/New_York")!).toISOString()).toBe("2025-07-15T13:30:00.000Z");
  });

  it("rejects dates that do not exist and malformed text", () => {
    expect(wallTimeToEpoch({ date: "2025-02-30", time: "10:00" }, "America/Sao_Paulo")).toBeNull();
    expect(wallTimeToEpoch({ date: "2025-02-10", time: "24:00" }, "America/Sao_Paulo")).toBeNull();
    expect(wallTimeToEpoch({ date: "10/02/2025", time: "10:00" }, "America/Sao_Paulo")).toBeNull();
  });

  it("round-trips an instant through the zone's wall clock", () => {
    const at = Date.UTC(2025, 11, 31, 2, 45);
    const wall = epochToWallTime(at, "America/Sao_Paulo");
    expect(wall).toEqual({ date: "2025-12-30", time: "23:45" });
    expect(wallTimeToEpoch(wall, "America/Sao_Paulo")).toBe(at);
  });

  it("keeps the seconds of a wall clock and rejects out-of-range fields (the CLI's --agendar)", () => {
    const at = wallClockToEpoch({ year: 2026, month: 11, day: 21, hour: 18, minute: 0, second: 30 }, "America/Sao_Paulo");
    expect(new Date(at!).toISOString()).toBe("2026-11-21T21:00:30.000Z");
    expect(wallClockToEpoch({ year: 2026, month: 11, day: 21, hour: 18, minute: 0, second: 60 }, "America/Sao_Paulo")).toBeNull();
    expect(wallClockToEpoch({ year: 2026, month: 13, day: 1, hour: 0, minute: 0 }, "America/Sao_Paulo")).toBeNull();
  });
});
