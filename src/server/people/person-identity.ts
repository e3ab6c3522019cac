import { createHmac, timingSafeEqual } from "node:crypto";
import type { SiteIdentityKeys } from "../../store/sites-repository.js";

/** Why an identification is refused; each is an error code with a pt-BR message. */
export type IdentityRefusal = "user_signature_required" | "user_signature_invalid" | "site_identity_secret_missing";

/** The signature a site's server computes: hex HMAC-SHA256 (key = the secret as UTF-8, message = the id as UTF-8). */
export function signUserId(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(userId, "utf8").digest("hex");
}

const SIGNATURE = /^[0-9a-f]{64}$/i;

/**
 * Whether `userId` may be tied to a subscription of the site whose keys these are, `now` deciding
 * whether the previous secret's grace period still runs. A site that does not verify accepts any
 * (valid) id; one that does but has no secret yet refuses every id rather than trusting unsigned
 * ones. Each secret is compared in constant time, so the answer
 * time says nothing about how close a guess was; a signature of the wrong shape is simply wrong.
 */
export function checkUserSignature(keys: SiteIdentityKeys, userId: string, signature: string | undefined, now: number): IdentityRefusal | null {
  if (!keys.verification) return null;
  if (keys.secret === null) return "site_identity_secret_missing";
  if (signature === undefined || signature === "") return "user_signature_required";
  if (!SIGNATURE.test(signature)) return "user_signature_invalid";
  const given = Buffer.from(signature, "hex");
  const current = matches(keys.secret, userId, given);
  const previous = keys.previousSecret !== null && keys.previousUntil !== null && now < keys.previousUntil && matches(keys.previousSecret, userId, given);
  return current || previous ? null : "user_signature_invalid";
}

function matches(secret: string, userId: string, given: Buffer): boolean {
  return timingSafeEqual(createHmac("sha256", secret).update(userId, "utf8").digest(), given);
}
