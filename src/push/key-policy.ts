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

/** P-256's field prime p and curve coefficient b (SEC 2 v2 §2.4.2; a = -3). */
const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/**
 * True when the 65-byte uncompressed point (0x04 | X | Y) lies on P-256. A key off the curve
 * would make every encryption for this subscription fail (or worse, leak bits of the ephemeral
 * private key in an invalid-curve attack), so it is refused at registration.
 *
 * SEC 1 v2 §3.2.2.1 public key validation: an uncompressed point is never the point at infinity;
 * both coordinates in [0, p-1]; y² = x³ - 3x + b (mod p); and nQ = O, which holds for every
 * point on the curve because P-256's cofactor is 1. The same checks OpenSSL makes when it decodes
 * a point, here in a few BigInt operations: asking OpenSSL (`ECDH.convertKey`) builds the curve's
 * group anew on each call, about 25 times slower, and a registration paid for it on every request.
 * key-policy.test.ts holds it to OpenSSL's answer on valid and corrupted points.
 */
export function isOnP256(point: Uint8Array): boolean {
  if (point.length !== 65 || point[0] !== 0x04) return false;
  const bytes = Buffer.from(point.buffer, point.byteOffset, point.byteLength);
  const x = BigInt(`0x${bytes.toString("hex", 1, 33)}`);
  const y = BigInt(`0x${bytes.toString("hex", 33, 65)}`);
  if (x >= P256_P || y >= P256_P) return false;
  // x² - 3 may be negative (x < 2): its remainder is then negative too, but (x² - 3)·x + b is not.
  return (y * y) % P256_P === (((x * x - 3n) % P256_P) * x + P256_B) % P256_P;
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
