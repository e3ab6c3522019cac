import { createECDH, randomBytes } from "node:crypto";
import type { PushSubscriptionJson } from "../../src/shared/api/subscriptions.js";

/**
 * A subscription as a browser's `PushSubscription.toJSON()` gives it, with real keys: a P-256
 * public key and a 16-byte auth secret. The endpoint defaults to an FCM-looking URL.
 */
export function aBrowserSubscription(overrides: { endpoint?: string } = {}): PushSubscriptionJson {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    endpoint: overrides.endpoint ?? `https://fcm.googleapis.com/fcm/send/${randomBytes(12).toString("base64url")}`,
    expirationTime: null,
    keys: {
      p256dh: ecdh.getPublicKey().toString("base64url"),
      auth: randomBytes(16).toString("base64url"),
    },
  };
}
