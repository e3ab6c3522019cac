import { decodeBase64Url } from "./base64url.js";
import { PushError } from "./push-error.js";

/** A subscription's keys as the browser gives them (`PushSubscription.toJSON().keys`). */
export interface SubscriberKeys {
  readonly p256dh: string;
  readonly auth: string;
}

/**
 * The same keys decoded and checked once, with the constant part of the RFC 8291 §3.4 key info
 * ("WebPush: info" 0x00 | ua_public) precomputed: a fan-out encrypts for each subscription once,
 * but a retry or a test send encrypts for it again.
 */
export interface PreparedSubscriberKeys {
  readonly uaPublic: Buffer;
  readonly auth: Buffer;
  readonly keyInfoPrefix: Buffer;
}

const KEY_INFO_LABEL = Buffer.from("WebPush: info\0", "latin1");

export function prepareSubscriberKeys(keys: SubscriberKeys | PreparedSubscriberKeys): PreparedSubscriberKeys {
  if ("uaPublic" in keys) return keys;
  const uaPublic = decodeBase64Url(keys.p256dh);
  if (uaPublic === undefined || uaPublic.length !== 65 || uaPublic[0] !== 0x04) {
    throw new PushError("p256dh_invalid", "p256dh must be a 65-byte uncompressed P-256 point");
  }
  // Whether the point lies on the curve is checked by the ECDH agreement itself (encrypt.ts), which
  // refuses an off-curve point: checking here too would decode the point twice per message.
  // RFC 8291 §3.2 says 16 bytes; accept no other length so a truncated secret cannot slip through.
  const auth = decodeBase64Url(keys.auth);
  if (auth === undefined || auth.length !== 16) {
    throw new PushError("auth_invalid", "auth must be a 16-byte secret");
  }
  return { uaPublic, auth, keyInfoPrefix: Buffer.concat([KEY_INFO_LABEL, uaPublic]) };
}
