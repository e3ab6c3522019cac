import { describe, expect, it } from "vitest";
import { formatDay, formatRate } from "./chart-format.js";

describe("chart formats", () => {
  it("shows a calendar day as dd/mm whatever the machine's zone", () => {
    expect(formatDay("2026-11-21")).toBe("21/11");
    expect(formatDay("2026-01-01")).toBe("01/01");
  });

  it("shows a rate as a pt-BR percentage, and nothing for no rate", () => {
    expect(formatRate(0.125)).toBe("12,5%");
    expect(formatRate(1)).toBe("100%");
    expect(formatRate(null)).toBe("");
  });
});
