/**
 * The rules of a tag (issue 24), without zod: the bell client (embed, @sino/react) checks tags
 * before calling the server and must not load zod. The server's schemas (tags.ts) refine with
 * these functions, so both sides refuse exactly the same tags.
 *
 * A tag is `key` (a key-only tag, `true` in JSON) or `key:value`. Keys are lowercase ASCII
 * letters, digits, `_ . -`, 1–64 characters. A value is printable text of 1–255 characters
 * (code points) without leading or trailing whitespace (refused, never trimmed: two spellings of
 * one value would make two groups), or a finite number.
 */
import { decimalNumber, isoDateMs } from "../segments/values.js";
/** What a tag's text compares as: the one rule the segment parser and evaluator use too. */
export { isoDateMs };

export const TAG_KEY_PATTERN = /^[a-z0-9_.-]{1,64}$/;

export const TAG_LIMITS = {
  keyLength: 64,
  valueLength: 255,
  /** Tags on one person or one subscription, after a write. */
  perOwner: 100,
  /** People in one bulk request (POST /people/tags). */
  bulkPeople: 10_000,
} as const;

/** A tag's value as the API takes it: text, a number, or `true` for a key-only tag. */
export type TagValue = string | number | true;
export type Tags = Record<string, TagValue>;
/** A merge: `null` removes the key. */
export type TagsPatch = Record<string, TagValue | null>;

const UNPRINTABLE = /[\p{Cc}\u2028\u2029]|\p{Cs}/u;
const EDGE_SPACE = /^\s|\s$/u;

export function isValidTagKey(key: unknown): key is string {
  return typeof key === "string" && TAG_KEY_PATTERN.test(key);
}

export function isValidTagValue(value: unknown): value is TagValue {
  if (value === true) return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "string" || value === "") return false;
  let length = 0;
  for (const _ of value) if (++length > TAG_LIMITS.valueLength) return false;
  return !UNPRINTABLE.test(value) && !EDGE_SPACE.test(value);
}

/** How a tag is stored: its text (null for a key-only tag), and typed copies for comparisons. */
export interface TypedTagValue {
  readonly value: string | null;
  readonly num: number | null;
  readonly time: number | null;
}

/**
 * The stored form of a valid value: a number keeps its text too (`18`); a string that is a plain
 * decimal (`18`, `-2.5`) also compares as a number, and an ISO date (`2026-01-31`, midnight UTC)
 * or date-time with an offset (`2026-01-31T10:00:00-03:00`) as epoch ms.
 */
export function typedTagValue(value: TagValue): TypedTagValue {
  if (value === true) return { value: null, num: null, time: null };
  if (typeof value === "number") return { value: String(value), num: value, time: null };
  return { value, num: decimalNumber(value), time: isoDateMs(value) };
}

/** The API's form of a stored tag: key-only → true; a canonical number's text → the number. */
export function tagValueOf(stored: { value: string | null; num: number | null }): TagValue {
  if (stored.value === null) return true;
  if (stored.num !== null && String(stored.num) === stored.value) return stored.num;
  return stored.value;
}

/**
 * The text a site's server signs with a person's id when the page carries trusted tags:
 * `${id}\n${canonicalTags(tags)}`. Keys sorted by UTF-16 code unit, one tag per line, `key` for a
 * key-only tag, `key=value` otherwise (a number as JavaScript prints it: `18`, `2.5`). A key has no
 * `=` nor line break and a value no line break, so the text names exactly one set of tags.
 */
export function canonicalTags(tags: Tags): string {
  return Object.keys(tags)
    .sort()
    .map((key) => {
      const value = tags[key]!;
      return value === true ? key : `${key}=${String(value)}`;
    })
    .join("\n");
}
