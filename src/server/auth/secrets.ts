import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes (256 bits, over OWASP's 128-bit minimum for session ids), base64url. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/**
 * SHA-256, hex. Enough for session ids and API tokens: they are 256-bit random values, so unlike
 * passwords they cannot be guessed from a leaked hash, and a fast hash lets a request be looked
 * up by an indexed equality instead of comparing against every stored secret.
 */
export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}
