import { describe, expect, it } from "vitest";
import { isValidUserId } from "./user-id-rule.js";

describe("isValidUserId", () => {
  it.each([
    ["a plain id", "cliente-4821", true],
    ["an e-mail", "ana@exemplo.com.br", true],
    ["inner spaces", "Ana Souza", true],
    ["128 characters", "x".repeat(128), true],
    ["128 emoji (code points, not UTF-16 units)", "🔔".repeat(128), true],
    ["accents and CJK", "joão-用户", true],
    ["empty", "", false],
    ["129 characters", "x".repeat(129), false],
    ["a leading space", " ana", false],
    ["a trailing tab", "ana\t", false],
    ["a trailing no-break space", "ana\u00a0", false],
    ["a newline inside", "a\nb", false],
    ["NUL", "a\u0000b", false],
    ["DEL", "a\u007fb", false],
    ["a C1 control", "a\u0085b", false],
    ["a line separator", "a\u2028b", false],
    ["a paragraph separator", "a\u2029b", false],
    ["a lone surrogate", "a\ud800b", false],
  ])("%s", (_name, value, valid) => {
    expect(isValidUserId(value)).toBe(valid);
  });

  it("refuses what is not a string", () => {
    expect(isValidUserId(42)).toBe(false);
    expect(isValidUserId(null)).toBe(false);
    expect(isValidUserId(undefined)).toBe(false);
  });
});
