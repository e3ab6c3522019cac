import { createECDH, createPrivateKey, createPublicKey, type JsonWebKey } from "node:crypto";
import { decodeBase64Url, encodeBase64Url } from "./base64url.js";
import type { VapidKeys } from "./vapid-keys.js";

/**
 * Why a key pair brought from another sender was refused. Stable: the API answers with the same
 * codes (src/shared/errors.ts) and a pt-BR message each.
 */
export type VapidKeyImportCode =
  /** Neither `web-push` JSON, a PEM private key nor a base64url private key. */
  | "vapid_key_unreadable"
  /** Only a public key: signing needs the private one. */
  | "vapid_key_public_only"
  /** A PEM key that is not an elliptic-curve key on P-256 (RSA, Ed25519, P-384…). */
  | "vapid_key_not_p256"
  /** The private scalar is not 32 bytes, is zero, or is not below the curve's order. */
  | "vapid_key_private_invalid"
  /** The public key given is not an uncompressed point on P-256. */
  | "vapid_key_off_curve"
  /** The public key given does not belong to the private key. */
  | "vapid_key_mismatch";

export class VapidKeyImportError extends Error {
  override readonly name = "VapidKeyImportError";
  constructor(
    readonly code: VapidKeyImportCode,
    message: string,
  ) {
    super(message);
  }
}

export function isVapidKeyImportError(value: unknown): value is VapidKeyImportError {
  return value instanceof VapidKeyImportError;
}

/** What an imported file was read as (for the operator's confirmation). */
export type VapidKeyFormat = "web-push-json" | "pem" | "base64url";

export interface ImportedVapidKeys extends VapidKeys {
  readonly format: VapidKeyFormat;
}

/** Longest text accepted: a PEM with its public key is ~250 characters; JSON with spaces a bit more. */
export const MAX_VAPID_KEY_TEXT = 4096;

/**
 * Reads the key pair another sender used, in the forms they are kept in:
 * - `web-push`'s JSON `{ "publicKey": "...", "privateKey": "..." }` (what `web-push
 *   generate-vapid-keys --json` prints and most scripts keep in a file or variable);
 * - a PEM EC private key, SEC1 (`BEGIN EC PRIVATE KEY`) or PKCS#8 (`BEGIN PRIVATE KEY`);
 * - the base64url private key alone (32 bytes).
 * The public key is always derived from the private key; one that came with it must be the same
 * point. Never puts key material in an error message (they end up in logs).
 */
export function importVapidKeys(text: string): ImportedVapidKeys {
  const trimmed = text.replace(/^\uFEFF/, "").trim();
  if (trimmed.length === 0 || trimmed.length > MAX_VAPID_KEY_TEXT) throw unreadable();
  if (trimmed.startsWith("{")) return { ...fromWebPushJson(trimmed), format: "web-push-json" };
  if (trimmed.startsWith("-----BEGIN")) return { ...fromPem(trimmed), format: "pem" };
  return { ...fromBase64UrlPrivateKey(trimmed), format: "base64url" };
}

function fromWebPushJson(text: string): VapidKeys {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unreadable();
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw unreadable();
  const { publicKey, privateKey } = parsed as { publicKey?: unknown; privateKey?: unknown };
  if (typeof privateKey !== "string") {
    if (typeof publicKey === "string") throw publicOnly();
    throw unreadable();
  }
  const keys = fromBase64UrlPrivateKey(privateKey.trim());
  if (publicKey !== undefined) {
    if (typeof publicKey !== "string") throw unreadable();
    checkSamePoint(publicKey.trim(), keys.publicKey);
  }
  return keys;
}

function fromPem(text: string): VapidKeys {
  if (/-----BEGIN PUBLIC KEY-----/.test(text) && !/PRIVATE KEY-----/.test(text)) throw publicOnly();
  let jwk: JsonWebKey;
  try {
    const key = createPrivateKey({ key: text, format: "pem" });
    if (key.asymmetricKeyType !== "ec") throw new VapidKeyImportError("vapid_key_not_p256", "The PEM key is not an elliptic-curve key");
    if (key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      throw new VapidKeyImportError("vapid_key_not_p256", "The PEM key is on another curve than P-256");
    }
    jwk = key.export({ format: "jwk" });
  } catch (error) {
    if (isVapidKeyImportError(error)) throw error;
    // OpenSSL refuses a key whose embedded public key is not on the curve with a bare
    // "unsupported": read the EC structure ourselves to say what is wrong with it.
    throw explainUndecodablePem(text);
  }
  if (typeof jwk.d !== "string" || typeof jwk.x !== "string" || typeof jwk.y !== "string") throw unreadable();
  const keys = fromBase64UrlPrivateKey(jwk.d);
  // A SEC1/PKCS#8 file may carry its own public key: it must be the one the scalar gives.
  const embedded = Buffer.concat([Buffer.from([0x04]), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]);
  checkSamePoint(encodeBase64Url(embedded), keys.publicKey);
  return keys;
}

/** The 32-byte scalar (base64url, or padded/standard base64 as some tools print it). */
function fromBase64UrlPrivateKey(text: string): VapidKeys {
  const normalised = text.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  const bytes = decodeBase64Url(normalised);
  if (bytes === undefined) throw unreadable();
  if (bytes.length === 65 && bytes[0] === 0x04) throw publicOnly();
  if (bytes.length !== 32) {
    throw new VapidKeyImportError("vapid_key_private_invalid", `The private key must be 32 bytes, not ${bytes.length}`);
  }
  let publicKey: Buffer;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(bytes);
    publicKey = ecdh.getPublicKey();
  } catch {
    // Zero, or not below the order of the curve.
    throw new VapidKeyImportError("vapid_key_private_invalid", "The private key is not a valid P-256 scalar");
  }
  return { publicKey: encodeBase64Url(publicKey), privateKey: encodeBase64Url(bytes) };
}

/** `given` must be an uncompressed P-256 point and equal to `derived`. */
function checkSamePoint(given: string, derived: string): void {
  const bytes = decodeBase64Url(given.replace(/=+$/, ""));
  if (bytes === undefined || bytes.length !== 65 || bytes[0] !== 0x04) {
    throw new VapidKeyImportError("vapid_key_off_curve", "The public key is not an uncompressed P-256 point");
  }
  try {
    createPublicKey({
      key: { kty: "EC", crv: "P-256", x: encodeBase64Url(bytes.subarray(1, 33)), y: encodeBase64Url(bytes.subarray(33)) },
      format: "jwk",
    });
  } catch {
    throw new VapidKeyImportError("vapid_key_off_curve", "The public key is not a point on P-256");
  }
  if (encodeBase64Url(bytes) !== derived) {
    throw new VapidKeyImportError("vapid_key_mismatch", "The public key does not belong to the private key");
  }
}

/**
 * The ECPrivateKey structure (RFC 5915) inside a SEC1 or PKCS#8 PEM OpenSSL would not decode:
 * `INTEGER 1, OCTET STRING (32) d, …, [1] BIT STRING (66) 00 04 X Y`. A valid scalar with a
 * public key off the curve is `vapid_key_off_curve`; anything else stays unreadable.
 */
function explainUndecodablePem(text: string): VapidKeyImportError {
  const body = text.replace(/-----(BEGIN|END) [A-Z ]+-----/g, "").replace(/\s+/g, "");
  const der = Buffer.from(body, "base64");
  const start = der.indexOf(Buffer.from([0x02, 0x01, 0x01, 0x04, 0x20]));
  if (start < 0 || der.length < start + 5 + 32) return unreadable();
  const scalar = der.subarray(start + 5, start + 5 + 32);
  let keys: VapidKeys;
  try {
    keys = fromBase64UrlPrivateKey(encodeBase64Url(scalar));
  } catch (error) {
    return isVapidKeyImportError(error) ? error : unreadable();
  }
  const point = der.indexOf(Buffer.from([0x03, 0x42, 0x00, 0x04]), start + 37);
  if (point < 0 || der.length < point + 3 + 65) return unreadable();
  try {
    checkSamePoint(encodeBase64Url(der.subarray(point + 3, point + 3 + 65)), keys.publicKey);
  } catch (error) {
    if (isVapidKeyImportError(error)) return error;
  }
  return unreadable();
}

function unreadable(): VapidKeyImportError {
  return new VapidKeyImportError("vapid_key_unreadable", "Not a web-push JSON key pair, a PEM EC private key or a base64url private key");
}

function publicOnly(): VapidKeyImportError {
  return new VapidKeyImportError("vapid_key_public_only", "Only a public key was given; signing needs the private key");
}
