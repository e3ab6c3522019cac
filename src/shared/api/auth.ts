import { z } from "zod";
import { text } from "./text.js";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, emailSchema, newPasswordSchema, userNameSchema } from "./users.js";

/**
 * The session cookie's name over plain http (a local install). HttpOnly: the web app never reads
 * it, it asks GET /session. Over https the name carries the `__Host-` prefix (see
 * `sessionCookieName`).
 */
export const SESSION_COOKIE = "sino_session";

/**
 * `__Host-sino_session` when Sino is served over https: browsers then accept the cookie only if
 * it is Secure, has Path=/ and no Domain (RFC 6265bis §4.1.3.2), so neither a sibling subdomain
 * nor a plain-http page on the same host can plant or overwrite it (session fixation).
 */
export function sessionCookieName(secure: boolean): string {
  return secure ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE;
}

/** GET /setup: whether the one-time set-up page should be offered (no user exists yet). */
export const setupStatusSchema = z.object({ needed: z.boolean() });
export type SetupStatus = z.infer<typeof setupStatusSchema>;

/** POST /setup → 201 `{ user }` signed in; 409 `setup_already_done` once any user exists. */
export const setupRequestSchema = z.strictObject({
  name: userNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
});
export type SetupRequest = z.input<typeof setupRequestSchema>;

/**
 * POST /session → 200 `{ user }` + cookie; 401 `invalid_credentials`; 429 `too_many_attempts`
 * with Retry-After. The email is not format-checked here: a malformed one simply matches no
 * account, and the answer must not tell which part was wrong.
 */
export const signInRequestSchema = z.strictObject({
  email: text().trim().toLowerCase().max(EMAIL_MAX_LENGTH),
  password: text().min(1).max(PASSWORD_MAX_LENGTH, { error: "password_too_long" }),
});
export type SignInRequest = z.input<typeof signInRequestSchema>;
