import { z } from "zod";
import { text } from "./text.js";

/**
 * Operators of the dashboard and what they may do. Field schemas carry a stable error code as their
 * message (e.g. `password_too_short`), which the server answers with and the web app looks up in
 * the catalog (`errors.<code>`), so a form can show a precise pt-BR message beside the field.
 */
export const USER_ROLES = ["admin", "publisher"] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

/** OWASP ASVS 2.1: at least 8 characters, long passphrases allowed, no composition rules. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
export const NAME_MAX_LENGTH = 100;
/** RFC 5321 §4.5.3.1.3 limits a path to 256 octets, i.e. 254 for the address itself. */
export const EMAIL_MAX_LENGTH = 254;

/** Trimmed and lowercased before it is checked, so `" Ana@Exemplo.com"` and `"ana@exemplo.com"` are one account. */
export const emailSchema = text({ error: "email_invalid" })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, { error: "email_invalid" })
  .pipe(z.email({ error: "email_invalid" }));

/** A new password (set-up, new user, change): length only. Never trimmed: spaces are characters. */
export const newPasswordSchema = text({ error: "password_too_short" })
  .min(PASSWORD_MIN_LENGTH, { error: "password_too_short" })
  .max(PASSWORD_MAX_LENGTH, { error: "password_too_long" });

export const userNameSchema = text({ error: "name_required" })
  .trim()
  .min(1, { error: "name_required" })
  .max(NAME_MAX_LENGTH, { error: "name_too_long" });

export const userSchema = z.object({
  /** A string, so ids beyond 2^53 never lose precision in a JSON client. */
  id: z.string(),
  name: z.string(),
  email: z.string(),
  role: userRoleSchema,
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /**
   * The password is temporary (set by an admin's reset, or at creation when asked): until the
   * user chooses a new one, their session may only change it (PUT /session/password) or sign out;
   * anything else answers 403 `password_change_required`.
   */
  mustChangePassword: z.boolean(),
});
export type User = z.infer<typeof userSchema>;

/** GET /users (admin). */
export const usersResponseSchema = z.object({ users: z.array(userSchema) });
export type UsersResponse = z.infer<typeof usersResponseSchema>;

/** Answer of POST /users, PATCH /users/:id, POST /setup, GET and POST /session. */
export const userResponseSchema = z.object({ user: userSchema });
export type UserResponse = z.infer<typeof userResponseSchema>;

/** POST /users (admin) → 201 `{ user }`; 409 `email_taken`. */
export const createUserRequestSchema = z.strictObject({
  name: userNameSchema,
  email: emailSchema,
  password: newPasswordSchema,
  role: userRoleSchema,
  /** The password is one the admin chose for them: ask for a new one at the first sign-in (default false). */
  mustChangePassword: z.boolean().optional(),
});
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

/**
 * PATCH /users/:id (admin) → `{ user }`. Every field optional; a password change ends that user's
 * sessions and, for someone else's, must be replaced at their next sign-in (as after a reset).
 */
export const updateUserRequestSchema = z.strictObject({
  name: userNameSchema.optional(),
  role: userRoleSchema.optional(),
  password: newPasswordSchema.optional(),
});
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;

/** `:id` of /users/:id and /tokens/:id. */
export const idParamsSchema = z.object({ id: z.string().regex(/^\d{1,19}$/, { error: "not_found" }) });

/**
 * PUT /session/password (the signed-in operator) → 200 `{ user }`: the current password proves
 * it is them (400 `password_incorrect`, counted like a failed sign-in); the new one follows the
 * same rules as any password and must differ from the current (`password_unchanged`). Their other
 * sessions end; this one stays.
 */
export const changeOwnPasswordRequestSchema = z.strictObject({
  currentPassword: text({ error: "password_incorrect" }).min(1, { error: "password_incorrect" }).max(PASSWORD_MAX_LENGTH, { error: "password_too_long" }),
  newPassword: newPasswordSchema,
});
export type ChangeOwnPasswordRequest = z.input<typeof changeOwnPasswordRequestSchema>;

/** Length of the temporary passwords a reset makes: 4 groups of 4 letters and digits (about 79 bits). */
export const TEMPORARY_PASSWORD_GROUPS = 4;

/**
 * POST /users/:id/password-reset (admin) → 200: a temporary password, shown this once. The user's
 * sessions end, and at their next sign-in they must choose a new password. An admin cannot reset
 * their own (409 `cannot_reset_own_password`): they change it with the current one.
 */
export const passwordResetResponseSchema = z.object({
  user: userSchema,
  temporaryPassword: z.string(),
});
export type PasswordResetResponse = z.infer<typeof passwordResetResponseSchema>;
