import { segmentError, type SegmentError } from "./segment-error.js";

/**
 * The text form's tokens. One pass over the characters, no backtracking and no regular expression
 * over the whole text, so its cost stays linear whatever the text holds.
 */
export type Token =
  /** A bare word: a key, a keyword, or a value (`premium`, `18`, `2026-01-01`, `America/Sao_Paulo`). */
  | { readonly kind: "word"; readonly text: string; readonly folded: string; readonly pos: number }
  /** A "quoted string", escapes resolved. */
  | { readonly kind: "string"; readonly text: string; readonly pos: number }
  | { readonly kind: "op"; readonly text: "=" | "!=" | "<>" | ">" | ">=" | "<" | "<="; readonly pos: number }
  | { readonly kind: "(" | ")" | "," | "end"; readonly pos: number };

/** Letters (accented too), digits and `_ - . / : @ +`. */
const WORD_CHAR = /[\p{L}\p{M}\p{Nd}_\-./:@+]/u;

/** Keywords compare without case or accents: `NÃO`, `não` and `nao` are one word. */
export function fold(word: string): string {
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/** A character that starts no token, with a hint when it is another language's operator. */
function unexpected(char: string, pos: number): SegmentError {
  if (char === "&") return segmentError("segment_syntax", pos, "segments:syntax.useAnd");
  if (char === "|") return segmentError("segment_syntax", pos, "segments:syntax.useOr");
  if (char === "!") return segmentError("segment_syntax", pos, "segments:syntax.useNot");
  if (char === "'" || char === "‘" || char === "’" || char === "“" || char === "”") return segmentError("segment_syntax", pos, "segments:syntax.useDoubleQuotes");
  return segmentError("segment_syntax", pos, "segments:syntax.unexpectedCharacter", { char });
}

export function tokenize(text: string): { ok: true; tokens: Token[] } | { ok: false; error: SegmentError } {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const char = text[i] ?? "";
    if (char === " " || char === "\t" || char === "\n" || char === "\r" || char === "\u00a0") {
      i++;
      continue;
    }
    const pos = i;
    if (char === "(" || char === ")" || char === ",") {
      tokens.push({ kind: char, pos });
      i++;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === "!=" || two === "<>" || two === ">=" || two === "<=") {
      tokens.push({ kind: "op", text: two, pos });
      i += 2;
      continue;
    }
    if (char === "=" || char === ">" || char === "<") {
      tokens.push({ kind: "op", text: char, pos });
      i++;
      continue;
    }
    if (char === '"') {
      let value = "";
      i++;
      for (;;) {
        if (i >= text.length) return { ok: false, error: segmentError("segment_syntax", pos, "segments:syntax.unterminatedString") };
        const c = text[i] ?? "";
        if (c === '"') break;
        if (c === "\\") {
          const next = text[i + 1];
          if (next !== '"' && next !== "\\") return { ok: false, error: segmentError("segment_syntax", i, "segments:syntax.badEscape") };
          value += next;
          i += 2;
          continue;
        }
        value += c;
        i++;
      }
      i++;
      tokens.push({ kind: "string", text: value, pos });
      continue;
    }
    // Code points, not UTF-16 units: a letter outside the BMP is one character of a word.
    const codePoint = String.fromCodePoint(text.codePointAt(i) ?? 0);
    if (WORD_CHAR.test(codePoint)) {
      let end = i;
      for (;;) {
        const c = String.fromCodePoint(text.codePointAt(end) ?? 0);
        if (end >= text.length || !WORD_CHAR.test(c)) break;
        end += c.length;
      }
      const word = text.slice(i, end);
      tokens.push({ kind: "word", text: word, folded: fold(word), pos });
      i = end;
      continue;
    }
    return { ok: false, error: unexpected(codePoint, pos) };
  }
  tokens.push({ kind: "end", pos: text.length });
  return { ok: true, tokens };
}
