import { z } from "zod";
import { isValidUserId } from "./user-id-rule.js";

/**
 * A person's id: the opaque id the host app knows its own user by (the API field `userId`; the
 * store's `person_id`). The rule itself is in user-id-rule.ts, without zod, so the bell client
 * checks ids the same way.
 */
export { isValidUserId, USER_ID_MAX_LENGTH } from "./user-id-rule.js";

/** A user id field: refused with `user_id_invalid` whatever is wrong with it. */
export const userIdSchema = z.string({ error: "user_id_invalid" }).refine(isValidUserId, { error: "user_id_invalid", abort: true });

/**
 * A person's identity as the browser sends it: the id and, on a site that verifies, the hex
 * HMAC-SHA256 of the id under the site's identity secret (computed by the host's server).
 */
export const userClaimSchema = z.strictObject({
  id: userIdSchema,
  // Its shape is checked when it is verified, so every wrong signature gets one answer.
  signature: z.string({ error: "user_signature_invalid" }).max(256, { error: "user_signature_invalid" }).optional(),
});
export type UserClaim = z.infer<typeof userClaimSchema>;
