import type { TFunction } from "i18next";
import type { ZodType } from "zod";
import { PASSWORD_MIN_LENGTH, emailSchema, newPasswordSchema, userNameSchema } from "../../../shared/api/users.js";

export { PASSWORD_MIN_LENGTH as PASSWORD_MIN } from "../../../shared/api/users.js";

/**
 * The account rules checked in the browser with the SAME zod schemas the server validates with:
 * each schema's message is an error code, whose pt-BR text is `errors.<code>` in the catalog.
 * Returns that catalog key, or null when the value passes.
 */
function check(schema: ZodType, value: string): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  return `errors.${result.error.issues[0]?.message ?? "validation_failed"}`;
}

export const checkName = (name: string) => check(userNameSchema, name);
export const checkEmail = (email: string) => check(emailSchema, email);
/** Length only, no composition rules (NIST SP 800-63B §5.1.1.2). */
export const checkNewPassword = (password: string) => check(newPasswordSchema, password);

/** Sign-in says nothing about the format: a wrong address simply does not match (as the server does). */
export function checkSignInEmail(email: string): string | null {
  return email.trim() === "" ? "dashboard.account.errors.emailRequired" : null;
}

/**
 * A new account (the first admin's, or one an admin creates): each failing field's pt-BR text,
 * with the same rules the server applies.
 */
export function newAccountErrors(t: TFunction, values: { name: string; email: string; password: string }): Partial<Record<"name" | "email" | "password", string>> {
  const name = checkName(values.name);
  const email = checkEmail(values.email);
  const password = checkNewPassword(values.password);
  return {
    ...(name ? { name: t(name) } : {}),
    ...(email ? { email: t(email) } : {}),
    ...(password ? { password: t(password, { min: PASSWORD_MIN_LENGTH }) } : {}),
  };
}
