import { z } from "zod";

/**
 * A person's id: the opaque id the host app knows its own user by (the API field `userId`; the
 * store's `person_id`). Case-sensitive and taken exactly as sent: 1–128 characters, none of them a
 * control character (C0, DEL, C1) nor a line or paragraph separator (U+2028/U+2029, which break
 * JavaScript string literals and log lines), and no leading or trailing whitespace, which would be
 * silently lost by whoever trims it on the way (the host's session, a CSV export) and make two
 * spellings of one person.
 */
export const USER_ID_MAX_LENGTH = 128;

const FORBIDDEN = /[\p{Cc}\u2028\u2029]/u;

export function isValidUserId(id: string): boolean {
  return id.length >= 1 && id.length <= USER_ID_MAX_LENGTH && !FORBIDDEN.test(id) && id.trim() === id;
}

/** A user id field: refused with `user_id_invalid` whatever is wrong with it. */
export const userIdSchema = z.string({ error: "user_id_invalid" }).refine(isValidUserId, { error: "user_id_invalid", abort: true });

/**
 * A person's identity as the browser sends it: the id and, on a site that verifies, the hex
 * HMAC-SHA256 of the id under the site's identity secret (computed by the host's server).
 */
export const userClaimSchema = z.object({
  id: userIdSchema,
  // Its shape is checked when it is verified, so every wrong signature gets one answer.
  signature: z.string({ error: "user_signature_invalid" }).max(256, { error: "user_signature_invalid" }).optional(),
});
export type UserClaim = z.infer<typeof userClaimSchema>;
