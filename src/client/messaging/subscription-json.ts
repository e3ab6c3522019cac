import type { PushSubscriptionJson } from "../../shared/api/subscriptions.js";

/**
 * `PushSubscription.toJSON()` narrowed to what the server needs (endpoint and both keys), or null.
 * A hand-written guard rather than the shared zod schema: it keeps zod out of the service worker
 * and the page bundle, and the server validates the meaning anyway.
 */
export function toSubscriptionJson(value: PushSubscriptionJSON): PushSubscriptionJson | null {
  const { endpoint, keys, expirationTime } = value;
  const p256dh = keys?.["p256dh"];
  const auth = keys?.["auth"];
  if (typeof endpoint !== "string" || typeof p256dh !== "string" || typeof auth !== "string") return null;
  return { endpoint, expirationTime: expirationTime ?? null, keys: { p256dh, auth } };
}
