import { describe, expect, it } from "vitest";
import { formatUntil } from "./retry-text.js";

describe("formatUntil", () => {
  const now = Date.parse("2026-11-26T12:00:00Z");
  const at = (seconds: number) => new Date(now + seconds * 1000).toISOString();
  it.each([
    [35, "em 35 segundos"],
    [60, "em 1 minuto"],
    [150, "em 3 minutos"],
    [3599, "em 1 hora"],
    [5 * 3600, "em 5 horas"],
    [2 * 86_400, "em 2 dias"],
    // Already due (the page's clock a little ahead): never "há …".
    [-5, "em 0 segundo"],
  ])("says %i s ahead as %s", (seconds, text) => {
    expect(formatUntil(at(seconds), now)).toBe(text);
  });
});
