import { decodeBase64Url } from "../../../push/base64url.js";

/**
 * Checks of the keys a browser sends with its subscription (RFC 8291 §3). Each returns the key in
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

/** P-256 (NIST SP 800-186 §3.2.1.3): y² = x³ − 3x + b over the prime field p. */
const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

/**
 * True when the 65-byte uncompressed point (0x04 | X | Y) lies on P-256. A key off the curve
 * would make every encryption for this subscription fail (or worse, leak bits of the ephemeral
 * private key in an invalid-curve attack), so it is refused at registration.
 */
export function isOnP256(point: Uint8Array): boolean {
  if (point.length !== 65 || point[0] !== 0x04) return false;
  const x = toBigInt(point.subarray(1, 33));
  const y = toBigInt(point.subarray(33, 65));
  if (x >= P || y >= P) return false;
  const lhs = (y * y) % P;
  const rhs = (((x * x) % P) * x - 3n * x + B) % P;
  return lhs === (rhs + P) % P;
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

function toBigInt(bytes: Uint8Array): bigint {
  return BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}
