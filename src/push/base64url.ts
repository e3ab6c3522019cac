/**
 * Strict base64url (RFC 4648 §5) without padding, as Web Push uses it everywhere (RFC 8291 §3.2,
 * RFC 8292 §3.2). Node's own decoder silently skips bad characters, which would turn a garbled key
 * into a short one; this one refuses anything that is not canonical.
 */
const ALPHABET = /^[A-Za-z0-9_-]*$/;

export function encodeBase64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64url");
}

/** The decoded bytes, or `undefined` when `text` is not canonical unpadded base64url. */
export function decodeBase64Url(text: string): Buffer | undefined {
  if (!ALPHABET.test(text) || text.length % 4 === 1) return undefined;
  const bytes = Buffer.from(text, "base64url");
  // Non-zero bits in the last character's unused low bits would decode but not round-trip.
  if (bytes.toString("base64url") !== text) return undefined;
  return bytes;
}

/** True when `text` is 1..`maxLength` characters of the base64url alphabet (no padding). */
export function isBase64UrlText(text: string, maxLength: number): boolean {
  return text.length > 0 && text.length <= maxLength && ALPHABET.test(text);
}
