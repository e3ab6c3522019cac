import type { ECDH } from "node:crypto";
import { createRequire } from "node:module";
import { ecdhFromPrivateKey } from "./keys.js";

// http_ece ships no types; this is the slice used here. It is Martin Thomson's reference
// implementation of RFC 8188 / RFC 8291, independent of Sino's encryption in src/push.
interface HttpEce {
  decrypt(buffer: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: Buffer }): Buffer;
}
const ece = createRequire(import.meta.url)("http_ece") as HttpEce;

export interface ReceiverKeys {
  readonly privateKey: Buffer;
  readonly auth: Buffer;
}

/** Decrypts an `aes128gcm` Web Push body (RFC 8291) as the subscriber's browser would. */
export function decryptPushBody(body: Buffer, keys: ReceiverKeys): Buffer {
  if (body.length < 21 + 65 + 17) throw new Error(`body too short for aes128gcm: ${body.length} bytes`);
  // RFC 8291 §4: the key id is the sender's 65-byte ephemeral public key.
  const idLength = body.readUInt8(20);
  if (idLength !== 65) throw new Error(`aes128gcm keyid must be 65 bytes, got ${idLength}`);
  // RFC 8291 §4: one record only, so the record size must cover the whole rest of the body.
  const recordSize = body.readUInt32BE(16);
  if (body.length - 86 > recordSize) throw new Error(`more than one record (rs ${recordSize}, ${body.length - 86} bytes)`);
  return ece.decrypt(body, { version: "aes128gcm", privateKey: ecdhFromPrivateKey(keys.privateKey), authSecret: keys.auth });
}
