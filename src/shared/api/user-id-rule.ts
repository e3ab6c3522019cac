/**
 * The host app's user id, as a person is known to Sino (issue 17): 1–128 characters (code points),
 * printable — no C0/C1 control characters, no U+2028/U+2029 (they break JavaScript string literals
 * and log lines), no lone surrogate — case sensitive, and never trimmed silently: leading or
 * trailing whitespace makes it invalid (`user_id_invalid`), since whoever trims it on the way (the
 * host's session, a CSV export) would make two spellings of one person.
 *
 * A plain module without zod: the bell client (the embed, the public page) checks ids before calling
 * the server and must not load zod. The server's schema (user-id.ts) refines with this function.
 */
export const USER_ID_MAX_LENGTH = 128;

const UNPRINTABLE = /[\p{Cc}\u2028\u2029]|\p{Cs}/u;
const EDGE_SPACE = /^\s|\s$/u;

export function isValidUserId(value: unknown): value is string {
  if (typeof value !== "string" || value === "") return false;
  // Counted in code points, so an emoji or a CJK character is one character, as people count them.
  let length = 0;
  for (const _ of value) if (++length > USER_ID_MAX_LENGTH) return false;
  return !UNPRINTABLE.test(value) && !EDGE_SPACE.test(value);
}
