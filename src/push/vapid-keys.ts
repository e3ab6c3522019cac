import { createECDH, createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { decodeBase64Url, encodeBase64Url } from "./base64url.js";
import { PushError } from "./push-error.js";

/** A VAPID key pair as stored and configured: base64url, unpadded (RFC 8292 §3.2). */
export interface VapidKeys {
  /** Uncompressed P-256 point, 65 bytes (0x04 | X | Y): what browsers pass as `applicationServerKey`. */
  readonly publicKey: string;
  /** The private scalar, 32 bytes. */
  readonly privateKey: string;
}

/** The same keys, parsed once into what signing needs. */
export interface ParsedVapidKeys {
  readonly publicKey: string;
  readonly publicKeyBytes: Buffer;
  readonly privateKeyObject: KeyObject;
  readonly publicKeyObject: KeyObject;
}

export function generateVapidKeys(): VapidKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    publicKey: encodeBase64Url(ecdh.getPublicKey()),
    privateKey: encodeBase64Url(padScalar(ecdh.getPrivateKey())),
  };
}

/**
 * Validates and parses a key pair: the public key must be an uncompressed point on P-256 and must
 * belong to the private key (a mismatched pair would make every push service answer 401/403).
 * Throws a `PushError` with code `vapid_key_invalid`: this runs once, at start-up.
 */
export function parseVapidKeys(keys: VapidKeys): ParsedVapidKeys {
  const pub = decodeBase64Url(keys.publicKey);
  const priv = decodeBase64Url(keys.privateKey);
  if (pub === undefined || pub.length !== 65 || pub[0] !== 0x04) {
    throw new PushError("vapid_key_invalid", "VAPID public key must be a 65-byte uncompressed P-256 point");
  }
  if (priv === undefined || priv.length !== 32) {
    throw new PushError("vapid_key_invalid", "VAPID private key must be a 32-byte P-256 scalar");
  }
  let derived: Buffer;
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(priv);
    derived = ecdh.getPublicKey();
  } catch {
    throw new PushError("vapid_key_invalid", "VAPID private key is not a valid P-256 scalar");
  }
  if (!derived.equals(pub)) {
    throw new PushError("vapid_key_invalid", "VAPID public key does not match the private key");
  }
  const jwk = {
    kty: "EC",
    crv: "P-256",
    x: encodeBase64Url(pub.subarray(1, 33)),
    y: encodeBase64Url(pub.subarray(33, 65)),
  };
  return {
    publicKey: keys.publicKey,
    publicKeyBytes: pub,
    privateKeyObject: createPrivateKey({ key: { ...jwk, d: keys.privateKey }, format: "jwk" }),
    publicKeyObject: createPublicKey({ key: jwk, format: "jwk" }),
  };
}

/** OpenSSL drops leading zero bytes of the scalar; the wire format is always 32 bytes. */
function padScalar(scalar: Buffer): Buffer {
  if (scalar.length === 32) return scalar;
  const out = Buffer.alloc(32);
  scalar.copy(out, 32 - scalar.length);
  return out;
}
