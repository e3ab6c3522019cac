import { z } from "zod";
import type { ErrorCode } from "../errors.js";

/**
 * Text the API takes from its callers. Control characters have no place in a title, a name or an
 * e-mail address: U+0000 makes PostgreSQL refuse the whole statement (a 500), and the others hide
 * in what the Painel and the notifications show. So every text field of every request is built
 * here, and refuses them with one stable code (`text_control_characters`) whatever the database.
 *
 * Two kinds of field:
 * - single-line (titles, names, e-mails, passwords, slugs, links, endpoints, keys, query
 *   parameters): no C0 control (U+0000–U+001F, tab and line breaks included), no DEL (U+007F),
 *   no C1 control (U+0080–U+009F);
 * - multi-line (a notification's body, which notifications show with its line breaks): the same,
 *   except tab (U+0009), line feed (U+000A) and carriage return (U+000D).
 * U+0000 is refused everywhere.
 */
export const CONTROL_CHARACTERS_ERROR = "text_control_characters" satisfies ErrorCode;

/** Unicode's Cc category is exactly C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F). */
const CONTROL = /\p{Cc}/u;
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

export type TextKind = "single-line" | "multi-line";

/** Whether `text` holds a control character a field of this kind refuses. */
export function hasControlCharacters(text: string, kind: TextKind = "single-line"): boolean {
  return (kind === "multi-line" ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL).test(text);
}

type StringParams = Parameters<typeof z.string>[0];

/**
 * A single-line text field: `z.string(params)` that refuses control characters. Chain the field's
 * own rules after it (`text({ error: "title_required" }).trim().min(1, …)`): the check sees the
 * text as sent, so a leading tab is refused rather than trimmed away.
 */
export function text(params?: StringParams): z.ZodString {
  return z.string(params).refine((value) => !hasControlCharacters(value, "single-line"), { error: CONTROL_CHARACTERS_ERROR, abort: true });
}

/** A multi-line text field: like `text()`, but tab, line feed and carriage return are allowed. */
export function multiLineText(params?: StringParams): z.ZodString {
  return z.string(params).refine((value) => !hasControlCharacters(value, "multi-line"), { error: CONTROL_CHARACTERS_ERROR, abort: true });
}

/**
 * An optional text field that an edit may clear: absent leaves it, `null` (or empty) clears it. A
 * value that is neither empty nor valid is refused with the field's own code (`link_invalid`,
 * `text_control_characters`…), as the create route refuses it, not the union's generic one.
 */
export function clearable<T extends z.ZodType>(schema: T) {
  return z
    .union([z.literal(""), schema], {
      error: (issue) => (issue.code === "invalid_union" ? issue.errors[1]?.[0]?.message : undefined),
    })
    .nullable()
    .optional();
}
