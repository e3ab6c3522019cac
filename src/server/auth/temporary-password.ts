import { randomInt } from "node:crypto";
import { TEMPORARY_PASSWORD_GROUPS } from "../../shared/api/users.js";

/** Lowercase letters and digits without the look-alikes (0/o, 1/l/i): read aloud or copied by hand. */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const GROUP_LENGTH = 4;

/**
 * A temporary password for an admin's reset: `xxxx-xxxx-xxxx-xxxx`, 16 characters drawn with a
 * CSPRNG from 31 (about 79 bits), so it resists guessing for the short time it lives (it must be
 * changed at the next sign-in) and is easy to pass on by voice or chat.
 */
export function newTemporaryPassword(): string {
  const groups: string[] = [];
  for (let g = 0; g < TEMPORARY_PASSWORD_GROUPS; g++) {
    let group = "";
    for (let i = 0; i < GROUP_LENGTH; i++) group += ALPHABET[randomInt(ALPHABET.length)];
    groups.push(group);
  }
  return groups.join("-");
}
