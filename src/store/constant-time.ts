import { createHash, timingSafeEqual } from "node:crypto";

/**
 * Compares two secrets in time independent of where they differ. Both sides are hashed first so
 * that inputs of different lengths are compared too, without leaking the stored secret's length.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash("sha256").update(a, "utf8").digest();
  const hb = createHash("sha256").update(b, "utf8").digest();
  return timingSafeEqual(ha, hb);
}
