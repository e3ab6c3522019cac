import { createHmac, timingSafeEqual } from "node:crypto";
import { canonicalTags, type Tags } from "../../shared/api/tag-rule.js";
import type { SiteIdentityKeys } from "../../store/sites-repository.js";

/** Why an identification is refused; each is an error code with a pt-BR message. */
export type IdentityRefusal = "user_signature_required" | "user_signature_invalid" | "site_identity_secret_missing";

/** The signature a site's server computes: hex HMAC-SHA256 (key = the secret as UTF-8, message = the id as UTF-8). */
export function signUserId(secret: string, userId: string): string {
  return createHmac("sha256", secret).update(userId, "utf8").digest("hex");
}

/**
 * What a site's server signs: the id alone, or, when the page carries trusted tags with it, the
 * id and the tags' canonical text (`${id}\n${canonicalTags(tags)}`), so the signature covers
 * exactly those tags and a page cannot add or change one.
 */
export function signedUserPayload(userId: string, tags?: Tags): string {
  return tags === undefined ? userId : `${userId}\n${canonicalTags(tags)}`;
}

/** The signature of an id with trusted tags (hex HMAC-SHA256 of `signedUserPayload`). */
export function signUser(secret: string, userId: string, tags?: Tags): string {
  return createHmac("sha256", secret).update(signedUserPayload(userId, tags), "utf8").digest("hex");
}

const SIGNATURE = /^[0-9a-f]{64}$/i;

/**
 * Whether `userId` may be tied to a subscription of the site whose keys these are, `now` deciding
 * whether the previous secret's grace period still runs. A site that does not verify accepts any
 * (valid) id; one that does but has no secret yet refuses every id rather than trusting unsigned
 * ones. Each secret is compared in constant time, so the answer
 * time says nothing about how close a guess was; a signature of the wrong shape is simply wrong.
 *
 * With `tags` (trusted tags the page carries) a valid signature over the id and the tags is needed
 * even on a site that does not verify ids: an unsigned page call can never change a trusted tag.
 */
export function checkUserSignature(
  keys: SiteIdentityKeys,
  userId: string,
  signature: string | undefined,
  now: number,
  tags?: Tags,
): IdentityRefusal | null {
  if (!keys.verification && tags === undefined) return null;
  if (keys.secret === null) return "site_identity_secret_missing";
  if (signature === undefined || signature === "") return "user_signature_required";
  if (!SIGNATURE.test(signature)) return "user_signature_invalid";
  const given = Buffer.from(signature, "hex");
  const payload = signedUserPayload(userId, tags);
  const current = matches(keys.secret, payload, given);
  const previous = keys.previousSecret !== null && keys.previousUntil !== null && now < keys.previousUntil && matches(keys.previousSecret, payload, given);
  return current || previous ? null : "user_signature_invalid";
}

function matches(secret: string, payload: string, given: Buffer): boolean {
  return timingSafeEqual(createHmac("sha256", secret).update(payload, "utf8").digest(), given);
}
