import { z } from "zod";

/**
 * The host app's people, named by an opaque user id (the API field is `userId`; in code
 * `personId`). One validator for every route that takes an id: identification, the people routes
 * and a `users` send.
 */
export const USER_ID_MAX_LENGTH = 128;

/** C0, DEL, C1 (Unicode Cc) and the line/paragraph separators, which break logs and headers. */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029]/u;

/** Whether `value` is a user id: 1–128 printable characters, no leading or trailing whitespace. */
export function isUserId(value: string): boolean {
  return value.length >= 1 && value.length <= USER_ID_MAX_LENGTH && !UNPRINTABLE.test(value) && value.trim() === value;
}

/** Case-sensitive and never trimmed: `" ana"` is refused rather than silently made `"ana"`. */
export const userIdSchema = z.string({ error: "user_id_invalid" }).refine(isUserId, { error: "user_id_invalid" });
