import { dictionary } from "@zxcvbn-ts/language-common";
import { PASSWORD_MIN_LENGTH } from "../../shared/api/users.js";

export interface CommonPasswords {
  /** Whether `password` is on the list of the most common ones (case-insensitively). */
  has(password: string): boolean;
}

/**
 * ASVS 6.2.4 (v4: 2.1.7): refuse the passwords attackers try first. The list is zxcvbn-ts's
 * `passwords-common` (about 49,000 passwords from public breach corpora, maintained with
 * zxcvbn-ts); only those long enough to pass the length rule can matter. Checked by the server
 * and the CLI only: the list would weigh down the web app, which shows the server's answer.
 */
export function createCommonPasswords(): CommonPasswords {
  const list = new Set(dictionary["passwords-common"].filter((p) => p.length >= PASSWORD_MIN_LENGTH).map((p) => p.toLowerCase()));
  return { has: (password) => list.has(password.toLowerCase()) };
}
