import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "./relative-time.js";

const now = Date.parse("2026-03-10T12:00:00Z");
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe("formatRelativeTime", () => {
  it.each([
    [5 * 60, "há 5 minutos"],
    [60, "há 1 minuto"],
    [3 * 3600, "há 3 horas"],
    [24 * 3600, "ontem"],
    [3 * 24 * 3600, "há 3 dias"],
    [14 * 24 * 3600, "há 2 semanas"],
    [400 * 24 * 3600, "ano passado"],
  ])("says how long ago %i seconds was in pt-BR", (seconds, expected) => {
    expect(formatRelativeTime(ago(seconds), now, "agora mesmo")).toBe(expected);
  });

  it("says 'just now' under a minute and for a clock slightly ahead", () => {
    expect(formatRelativeTime(ago(30), now, "agora mesmo")).toBe("agora mesmo");
    expect(formatRelativeTime(ago(-20), now, "agora mesmo")).toBe("agora mesmo");
  });

  it("gives nothing for a date it cannot read", () => {
    expect(formatRelativeTime("ontem", now, "agora mesmo")).toBe("");
  });
});
