import { hash, verify, type Algorithm } from "@node-rs/argon2";
import { randomBytes } from "node:crypto";

/**
 * argon2id with OWASP's first recommended configuration (Password Storage Cheat Sheet: m=19 MiB,
 * t=2, p=1). `Algorithm` is a const enum that isolated-module builds cannot inline, hence the
 * literal: 2 is Argon2id in the library's enum (0 = d, 1 = i).
 */
export const ARGON2ID_OPTIONS = {
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /**
   * Spends the same time as a real verification and fails: used when the email matches no
   * account, so the answer's timing does not tell whether an account exists.
   */
  verifyNothing(password: string): Promise<false>;
}

export function createPasswordHasher(options: typeof ARGON2ID_OPTIONS = ARGON2ID_OPTIONS): PasswordHasher {
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    async verify(passwordHash, password) {
      try {
        return await verify(passwordHash, password);
      } catch {
        // A malformed stored hash is a failed sign-in, not a 500 that would reveal the account.
        return false;
      }
    },
    async verifyNothing(password) {
      dummy ??= hash(randomBytes(32).toString("base64url"), options);
      await verify(await dummy, password).catch(() => false);
      return false;
    },
  };
}
