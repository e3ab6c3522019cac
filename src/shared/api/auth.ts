import { z } from "zod";
import { text } from "./text.js";
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, emailSchema, newPasswordSchema, userNameSchema } from "./users.js";

/** The session cookie's name. HttpOnly: the web app never reads it, it asks GET /session. */
export const SESSION_COOKIE = "sino_session";

/** GET /setup: whether the one-time set-up page should be offered (no user exists yet). */
export const setupStatusSchema = z.object({ needed: z.boolean() });
export type SetupStatus = z.infer<typeof setupStatusSchema>;

/** POST /setup → 201 `{ user }` signed in; 409 `setup_already_done` once any user exists. */
export const setupRequestSchema = z.object({
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
export const signInRequestSchema = z.object({
  email: text().trim().toLowerCase().max(EMAIL_MAX_LENGTH),
  password: text().min(1).max(PASSWORD_MAX_LENGTH, { error: "password_too_long" }),
});
export type SignInRequest = z.input<typeof signInRequestSchema>;
