import { describe, expect, it } from "vitest";
import { caretAt } from "./segment-editor.js";

describe("the caret under a refused expression", () => {
  it("points at the character of a one-line expression", () => {
    expect(caretAt("plano = premium e (idade >", 26)).toEqual({ line: "plano = premium e (idade >", caret: `${" ".repeat(26)}^`, lineNumber: 1, column: 27 });
  });

  it("shows only the line that holds the position, counted from 1", () => {
    const text = "plano = premium\ne idade >= x18\nou tem vip";
    const at = text.indexOf("x18");
    expect(caretAt(text, at)).toEqual({ line: "e idade >= x18", caret: "           ^", lineNumber: 2, column: 12 });
  });

  it("points just past the end of an expression cut short, and at the start of an empty line", () => {
    expect(caretAt("plano =", 7)).toMatchObject({ line: "plano =", caret: "       ^", column: 8 });
    expect(caretAt("tem vip e\n", 10)).toMatchObject({ line: "", caret: "^", lineNumber: 2, column: 1 });
  });

  it("keeps the caret in line when the text has tabs, and clamps a position out of range", () => {
    expect(caretAt("\ttem x", 1)).toMatchObject({ line: " tem x", caret: " ^" });
    expect(caretAt("tem", 99)).toMatchObject({ caret: "   ^" });
    expect(caretAt("tem", -5)).toMatchObject({ caret: "^" });
  });
});
