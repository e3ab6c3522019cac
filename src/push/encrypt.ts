import { createCipheriv, createECDH, hkdfSync, randomBytes, randomFillSync, type ECDH } from "node:crypto";
import { PushError } from "./push-error.js";
import { prepareSubscriberKeys, type PreparedSubscriberKeys, type SubscriberKeys } from "./subscriber-keys.js";

/** RFC 8188 record size Sino always announces: the most push services accept (RFC 8291 §4). */
export const RECORD_SIZE = 4096;
/** salt (16) | rs (4) | idlen (1) | keyid = sender public key (65), RFC 8188 §2.1. */
export const HEADER_LENGTH = 86;
/** One record: plaintext | 0x02 delimiter | 16-byte tag must fit in 4096 - 86 bytes (RFC 8291 §4). */
export const MAX_PLAINTEXT_LENGTH = RECORD_SIZE - HEADER_LENGTH - 1 - 16;

export interface EncryptOptions {
  /** Only for known-answer tests: a fixed salt instead of 16 random bytes. */
  readonly salt?: Uint8Array;
  /** Only for known-answer tests: a fixed sender (application server) key pair. */
  readonly senderKeys?: { readonly privateKey: Uint8Array };
}

/** The intermediate values of RFC 8291 §3.3–3.4, exposed for the Appendix A test. */
export interface EncryptionTrace {
  ecdhSecret: Buffer;
  ikm: Buffer;
  cek: Buffer;
  nonce: Buffer;
  asPublic: Buffer;
}

const CEK_INFO = Buffer.from("Content-Encoding: aes128gcm\0", "latin1");
const NONCE_INFO = Buffer.from("Content-Encoding: nonce\0", "latin1");
const LAST_RECORD_DELIMITER = Buffer.from([0x02]);

/**
 * Encrypts one push message body, RFC 8291 `aes128gcm` in a single RFC 8188 record. A fresh
 * ephemeral ECDH key and salt per message (RFC 8291 §3.1: reuse across messages would reuse the
 * AES-GCM key and nonce when a payload is resent). Throws `PushError` `payload_too_large` before
 * any work when the plaintext cannot fit one record, and `p256dh_invalid`/`auth_invalid` for bad
 * subscriber keys.
 */
export function encryptPayload(
  plaintext: Uint8Array | string,
  keys: SubscriberKeys | PreparedSubscriberKeys,
  options: EncryptOptions = {},
  trace?: EncryptionTrace,
): Buffer {
  const data = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext;
  checkPlaintextLength(data.byteLength);
  const ua = prepareSubscriberKeys(keys);

  const body = Buffer.allocUnsafe(encryptedLength(data.byteLength));
  if (options.salt === undefined) randomFillSync(body, 0, 16);
  else body.set(checkSalt(options.salt), 0);
  const ecdh = senderEcdh(options.senderKeys);
  seal(data, ua, ecdh, ecdh.getPublicKey(), body, trace);
  return body;
}

/** Encrypts one plaintext for one subscription; see `createPayloadEncryptor`. */
export type PayloadEncryptor = (
  plaintext: Uint8Array,
  keys: SubscriberKeys | PreparedSubscriberKeys,
  /** Where to write the body (`encryptedLength(plaintext.byteLength)` bytes from `offset`); a new buffer when absent. */
  target?: Uint8Array,
  offset?: number,
) => Buffer;

/**
 * `encryptPayload` for a fan-out: the same RFC 8291 body, with a new ephemeral key pair and a new
 * random salt for every call (RFC 8291 §3.1), but one ECDH object regenerated in place instead of
 * one constructed per message, and the body written straight into the caller's buffer (the
 * encryption worker's batch) instead of allocated and copied. One encryptor per thread.
 */
export function createPayloadEncryptor(): PayloadEncryptor {
  const ecdh = createECDH("prime256v1");
  const random = Buffer.alloc(16 + 32);
  return (plaintext, keys, target, offset = 0) => {
    checkPlaintextLength(plaintext.byteLength);
    const ua = prepareSubscriberKeys(keys);
    const length = encryptedLength(plaintext.byteLength);
    const body =
      target === undefined ? Buffer.allocUnsafe(length) : Buffer.from(target.buffer, target.byteOffset + offset, length);
    // One draw from the CSPRNG for the salt and the new private key.
    randomFillSync(random);
    random.copy(body, 0, 0, 16);
    seal(plaintext, ua, ecdh, replaceKeyPair(ecdh, random.subarray(16)), body);
    return body;
  };
}

/**
 * Gives `ecdh` a fresh random key pair and returns its public key: the private key is 32 bytes
 * from the CSPRNG, drawn again in the rare case (about 2^-32) that it is 0 or not below the
 * curve's order, which `setPrivateKey` refuses — the same uniform choice `generateKeys()` makes.
 * On Node 24 (OpenSSL 3.5) `generateKeys()` costs ~39 µs against ~18 µs for this: it checks the
 * new pair with a second scalar multiplication, which a key computed here from its own scalar
 * does not need.
 */
export function replaceKeyPair(ecdh: ECDH, scalar: Buffer, fill: (buffer: Buffer) => void = randomFillSync): Buffer {
  for (;;) {
    try {
      ecdh.setPrivateKey(scalar);
      return ecdh.getPublicKey();
    } catch (error) {
      if ((error as { code?: unknown }).code !== "ERR_CRYPTO_INVALID_KEYTYPE") throw error;
      fill(scalar);
    }
  }
}

/** Length of the body for `plaintextLength` bytes: header, plaintext, delimiter, tag. */
export function encryptedLength(plaintextLength: number): number {
  return HEADER_LENGTH + plaintextLength + 1 + 16;
}

/** RFC 8291 §3.3–3.4 and RFC 8188 §2: everything after the salt (already in body[0..16]). */
function seal(data: Uint8Array, ua: PreparedSubscriberKeys, ecdh: ECDH, asPublic: Buffer, body: Buffer, trace?: EncryptionTrace): void {
  const salt = body.subarray(0, 16);
  let ecdhSecret: Buffer;
  try {
    ecdhSecret = ecdh.computeSecret(ua.uaPublic);
  } catch {
    throw new PushError("p256dh_invalid", "p256dh is not a point on P-256");
  }

  // RFC 8291 §3.4: IKM = HKDF(auth, ecdh_secret, "WebPush: info" 0 ua_public as_public, 32).
  // RFC 8188 §2.2–2.3: CEK and NONCE = HKDF(salt, IKM, "Content-Encoding: …" 0, 16 / 12).
  // hkdfSync, not HMACs by hand: on Node 24 (OpenSSL 3.5) each createHmac costs ~16 µs of set-up
  // against ~3 on Node 20, so the five HMACs took ~80 µs per message; three hkdfSync calls (each an
  // extract and an expand inside OpenSSL, no JS objects to collect) take ~40.
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, ua.auth, Buffer.concat([ua.keyInfoPrefix, asPublic]), 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, CEK_INFO, 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, NONCE_INFO, 12));

  body.writeUInt32BE(RECORD_SIZE, 16);
  body[20] = 65;
  asPublic.copy(body, 21);

  // The single (last) record is plaintext | 0x02, no padding (RFC 8188 §2, RFC 8291 §4).
  const cipher = createCipheriv("aes-128-gcm", cek, nonce);
  let offset = HEADER_LENGTH;
  offset += cipher.update(data).copy(body, offset);
  offset += cipher.update(LAST_RECORD_DELIMITER).copy(body, offset);
  offset += cipher.final().copy(body, offset);
  cipher.getAuthTag().copy(body, offset);

  if (trace !== undefined) {
    trace.ecdhSecret = ecdhSecret;
    trace.ikm = ikm;
    trace.cek = cek;
    trace.nonce = nonce;
    trace.asPublic = asPublic;
  }
}

/** Throws `payload_too_large` when `byteLength` bytes of plaintext cannot fit one record. */
export function checkPlaintextLength(byteLength: number): void {
  if (byteLength > MAX_PLAINTEXT_LENGTH) {
    throw new PushError(
      "payload_too_large",
      `push payload is ${byteLength} bytes; at most ${MAX_PLAINTEXT_LENGTH} fit one aes128gcm record`,
    );
  }
}

function senderEcdh(senderKeys: EncryptOptions["senderKeys"]): ECDH {
  const ecdh = createECDH("prime256v1");
  if (senderKeys === undefined) replaceKeyPair(ecdh, randomBytes(32));
  else ecdh.setPrivateKey(senderKeys.privateKey);
  return ecdh;
}

function checkSalt(salt: Uint8Array): Uint8Array {
  if (salt.byteLength !== 16) throw new RangeError("salt must be 16 bytes");
  return salt;
}
