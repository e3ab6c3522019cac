import { describe, expect, it } from "vitest";
import { hasControlCharacters, multiLineText, text } from "./text.js";

const LINE_BREAKS = new Set([0x09, 0x0a, 0x0d]);

describe("control characters in text fields", () => {
  it("finds every C0 control, DEL and every C1 control, and nothing else below U+00A0 nor beyond", () => {
    for (let code = 0; code < 0xa0; code += 1) {
      const isControl = code < 0x20 || (code >= 0x7f && code < 0xa0);
      expect(hasControlCharacters(`a${String.fromCharCode(code)}b`), `U+${code.toString(16)}`).toBe(isControl);
      expect(hasControlCharacters(`a${String.fromCharCode(code)}b`, "multi-line"), `U+${code.toString(16)} multi-line`).toBe(isControl && !LINE_BREAKS.has(code));
    }
    for (const ok of ["São Paulo – ação", "\u00a0", "😀", "\u200b", "\u2028"]) expect(hasControlCharacters(ok)).toBe(false);
  });

  it("makes a schema answer text_control_characters first, whatever else is wrong", () => {
    const title = text({ error: "title_required" }).trim().min(1, { error: "title_required" }).max(3, { error: "title_too_long" });
    expect(title.safeParse("abc").success).toBe(true);
    expect(title.safeParse("ab\u0000cdef").error?.issues.map((issue) => issue.message)).toEqual(["text_control_characters"]);
    expect(title.safeParse("abcdef").error?.issues.map((issue) => issue.message)).toEqual(["title_too_long"]);
    expect(multiLineText().safeParse("linha 1\r\nlinha 2\tfim").success).toBe(true);
    expect(multiLineText().safeParse("linha 1\u0000").error?.issues[0]?.message).toBe("text_control_characters");
  });
});
