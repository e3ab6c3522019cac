import { StringDecoder } from "node:string_decoder";
import { rowOfJson, type RawRow } from "./raw-row.js";

/** A JSON row bigger than this is refused without keeping it whole (a subscription is < 2 KiB). */
const MAX_ROW_CHARS = 64 * 1024;

/** NDJSON: one JSON object per line; blank lines are skipped. */
export async function* ndjsonRows(bytes: AsyncIterable<Buffer>): AsyncGenerator<RawRow> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let line = 0;
  let oversized = false;
  const rowOf = (text: string, at: number): RawRow | undefined => {
    if (text.trim() === "") return undefined;
    if (oversized) return { line: at, unreadable: true };
    try {
      return rowOfJson(at, JSON.parse(text));
    } catch {
      return { line: at, unreadable: true };
    }
  };
  for await (const chunk of bytes) {
    const text = pending + decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf("\n", start); end !== -1; end = text.indexOf("\n", start)) {
      line += 1;
      const row = rowOf(stripBom(text.slice(start, end), line), line);
      oversized = false;
      if (row !== undefined) yield row;
      start = end + 1;
    }
    pending = text.slice(start);
    // A line that never ends is not kept whole: it is refused when its end comes.
    if (pending.length > MAX_ROW_CHARS) {
      pending = "";
      oversized = true;
    }
  }
  const last = rowOf(stripBom(pending + decoder.end(), line + 1), line + 1);
  if (last !== undefined) yield last;
}

function stripBom(text: string, line: number): string {
  return line === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A JSON array of subscriptions, streamed: the array's top-level elements are told apart by a
 * small scanner (brackets and strings only) and each is handed whole to JSON.parse, so a malformed
 * element is refused on its own line and the rest still import. Streaming JSON libraries give
 * values but not the line they started on, which the report needs; the scanner is the only hand
 * written part and parses nothing itself.
 */
export async function* jsonArrayRows(bytes: AsyncIterable<Buffer>): AsyncGenerator<RawRow> {
  const decoder = new StringDecoder("utf8");
  const scanner = new ArrayScanner();
  for await (const chunk of bytes) yield* scanner.feed(decoder.write(chunk));
  yield* scanner.feed(decoder.end());
  yield* scanner.end();
}

class ArrayScanner {
  /** 0: before `[`; 1: inside the array; 2: after `]`. */
  private phase = 0;
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private element = "";
  private elementLine = 0;
  private oversized = false;
  private trailing = false;

  *feed(text: string): Generator<RawRow> {
    let from = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === "\n") this.line += 1;
      if (this.phase === 0) {
        if (c === "[") {
          this.phase = 1;
          from = i + 1;
        }
        continue;
      }
      if (this.phase === 2) {
        if (!isSpace(c)) this.trailing = true;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === "\\") this.escaped = true;
        else if (c === '"') this.inString = false;
        continue;
      }
      if (c === '"') this.inString = true;
      else if (c === "{" || c === "[") this.depth += 1;
      else if (c === "}" || c === "]") {
        if (this.depth === 0 && c === "]") {
          this.append(text.slice(from, i));
          const row = this.take();
          if (row !== undefined) yield row;
          this.phase = 2;
          continue;
        }
        // A stray closer makes this element unreadable (JSON.parse says so), not the rest of the file.
        this.depth = Math.max(0, this.depth - 1);
      } else if (c === "," && this.depth === 0) {
        this.append(text.slice(from, i));
        const row = this.take();
        if (row !== undefined) yield row;
        from = i + 1;
        continue;
      }
      if (this.elementLine === 0 && !isSpace(c)) this.elementLine = this.line;
    }
    if (this.phase === 1) this.append(text.slice(from));
  }

  /** The end of the file: an array that never closed refuses its last element; text after `]` is a row that cannot be read. */
  *end(): Generator<RawRow> {
    if (this.phase === 1 && this.element.trim() !== "") yield { line: this.elementLine, unreadable: true };
    if (this.trailing) yield { line: this.line, unreadable: true };
  }

  private append(text: string): void {
    if (this.oversized) return;
    this.element += text;
    if (this.element.length > MAX_ROW_CHARS) {
      this.element = "";
      this.oversized = true;
    }
  }

  private take(): RawRow | undefined {
    const text = this.element;
    const line = this.elementLine;
    const oversized = this.oversized;
    this.element = "";
    this.elementLine = 0;
    this.oversized = false;
    this.depth = 0;
    if (oversized) return { line, unreadable: true };
    if (text.trim() === "") return undefined;
    try {
      return rowOfJson(line, JSON.parse(text));
    } catch {
      return { line, unreadable: true };
    }
  }
}

function isSpace(c: string): boolean {
  return c === " " || c === "\n" || c === "\r" || c === "\t" || c === "\uFEFF";
}
