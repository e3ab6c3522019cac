import type { TFunction } from "i18next";
import type { SegmentTagKinds } from "../../../shared/segments/tree.js";
import { formatNumber } from "../format.js";
import { SEGMENT_LIMITS } from "../../../shared/segments/tree.js";

/** What the segment editor edits: the expression's text and which tags its tag conditions read. */
export interface SegmentDraft {
  expression: string;
  tagKinds: SegmentTagKinds;
}

export const EMPTY_SEGMENT_DRAFT: SegmentDraft = { expression: "", tagKinds: "trusted" };

/** The live count waits this long after the last keystroke before asking the server. */
export const SEGMENT_COUNT_DEBOUNCE_MS = 400;

export const SEGMENT_TEXT_MAX = SEGMENT_LIMITS.textLength;

/**
 * The line of the expression holding a 0-based error position, and a caret under its character:
 * `{ line: "plano = ", caret: "        ^", lineNumber: 1, column: 9 }` (line and column from 1, as
 * people count). Tabs become single spaces so the caret lines up in a monospace font. A position at
 * the very end (an expression cut short) points just past the last character.
 */
export function caretAt(text: string, position: number): { line: string; caret: string; lineNumber: number; column: number } {
  const at = Math.max(0, Math.min(position, text.length));
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const end = text.indexOf("\n", at);
  const line = text.slice(start, end === -1 ? text.length : end).replace(/\t/g, " ");
  const column = at - start;
  const lineNumber = text.slice(0, start).split("\n").length;
  return { line, caret: `${" ".repeat(column)}^`, lineNumber, column: column + 1 };
}

/** A saved segment's name: 1 to 80 printable characters, unique regardless of case (the server checks). */
export const SEGMENT_NAME_MAX = 80;

/** "1.250 inscrições · 980 pessoas". */
export function segmentCountText(t: TFunction, count: { subscriptions: number; people: number }): string {
  return t("segments.editor.count", {
    subscriptions: t("segments.editor.subscriptions", { count: count.subscriptions, formatted: formatNumber(count.subscriptions) }),
    people: t("segments.editor.people", { count: count.people, formatted: formatNumber(count.people) }),
  });
}
