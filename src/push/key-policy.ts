import { ECDH } from "node:crypto";
import { decodeBase64Url } from "./base64url.js";

/**
 * Checks of the keys a browser sends with its subscription (RFC 8291 §3); with the endpoint policy
 * (endpoint-policy.ts) they decide whether a subscription is accepted. Each returns the key in
 * canonical form (base64url without padding, which is how it is stored and compared) or the
 * reason it is refused.
 */
export type KeyCheck<Code extends string> = { ok: true; value: string; bytes: Buffer } | { ok: false; code: Code };

/**
 * Browsers send unpadded base64url, but some client libraries pad it; both are accepted. Any other
 * alphabet (standard base64 `+` and `/`, spaces) is refused rather than silently skipped, as
 * Node's own decoder would.
 */
export function decodeLenientBase64Url(text: string): Buffer | undefined {
  const match = /^([A-Za-z0-9_-]*)(={0,2})$/.exec(text);
  if (match === null) return undefined;
  const [, body = "", padding = ""] = match;
  if (padding !== "" && text.length % 4 !== 0) return undefined;
  return decodeBase64Url(body);
}

/**
 * True when the 65-byte uncompressed point (0x04 | X | Y) lies on P-256. A key off the curve
 * would make every encryption for this subscription fail (or worse, leak bits of the ephemeral
 * private key in an invalid-curve attack), so it is refused at registration. OpenSSL checks the
 * point when it decodes it (EC_POINT_oct2point), so the curve arithmetic stays in the crypto
 * library. `ECDH.convertKey` decodes it without building a key object: several times faster than
 * importing it as a JWK, which matters when `sino import` checks a million keys.
 */
export function isOnP256(point: Uint8Array): boolean {
  if (point.length !== 65 || point[0] !== 0x04) return false;
  try {
    ECDH.convertKey(point, "prime256v1", undefined, undefined, "compressed");
    return true;
  } catch {
    return false;
  }
}

export function checkP256dh(text: string): KeyCheck<"p256dh_invalid" | "p256dh_off_curve"> {
  const bytes = decodeLenientBase64Url(text);
  if (bytes === undefined || bytes.length !== 65 || bytes[0] !== 0x04) return { ok: false, code: "p256dh_invalid" };
  if (!isOnP256(bytes)) return { ok: false, code: "p256dh_off_curve" };
  return { ok: true, value: bytes.toString("base64url"), bytes };
}

/** RFC 8291 §3.2: the authentication secret is exactly 16 bytes. */
export function checkAuth(text: string): KeyCheck<"auth_invalid"> {
  const bytes = decodeLenientBase64Url(text);
  if (bytes === undefined || bytes.length !== 16) return { ok: false, code: "auth_invalid" };
  return { ok: true, value: bytes.toString("base64url"), bytes };
}
