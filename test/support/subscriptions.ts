import { createECDH, randomBytes } from "node:crypto";
import type { PushSubscriptionJson } from "../../src/shared/api/subscriptions.js";
import type { RegisterSubscriptionInput } from "../../src/store/subscriptions-repository.js";

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

/**
 * What the store registers for a browser (`subscriptions.register`): an FCM-looking endpoint,
 * keys of the right sizes (random bytes: the store never uses them) and a Chrome user agent.
 */
export function aSubscriptionInput(overrides: Partial<RegisterSubscriptionInput> = {}): RegisterSubscriptionInput {
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString("hex")}`,
    p256dh: randomBytes(65).toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
    userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/140",
    ...overrides,
  };
}
