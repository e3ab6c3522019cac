import type { SubscriptionProof } from "../../shared/api/subscriptions.js";
import type { ApiClient } from "./api-client.js";
import { base64UrlToBytes, sameKey } from "./base64url.js";
import { toSubscriptionJson } from "./subscription-json.js";
import { withTimeout } from "./with-timeout.js";

/**
 * The silent move (issue 20). A visitor who already granted this site notification permission may
 * hold a push subscription made with another key: another sender's (OneSignal, Firebase, a
 * `web-push` script, whose worker Sino's replaced at the same scope) or the site's previous Sino
 * key after a rotation. Such a subscription cannot receive Sino's pushes under the site's current
 * key, and `subscribe()` with a new key fails while it exists. Since the permission belongs to the
 * site, not to the sender, the bell replaces it without asking: unsubscribe, subscribe again with
 * the site's key, and register the new one with the old one as `previous` (the server moves its
 * channels when it knew it) and `migrated: true` (counted per site as "migrada").
 */
export interface SilentMove {
  readonly subscription: PushSubscription;
  /** Proof of the replaced subscription (its endpoint and auth secret), when it had keys. */
  readonly previous: SubscriptionProof | undefined;
  /** The site's key the new subscription was made with (base64url). */
  readonly applicationServerKey: string;
}

export interface SilentMoveDeps {
  readonly api: Pick<ApiClient, "getConfig">;
  readonly notification: { readonly permission: NotificationPermission } | undefined;
  /** Upper bound for `subscribe()` (Chromium's never settles without its push service). */
  readonly timeoutMs: number;
  readonly logger: Pick<Console, "log" | "warn">;
}

/**
 * `null`: nothing to move (no permission, same key, or the site's key is unknown right now: the
 * next visit tries again). `"failed"`: the old subscription is gone but no new one could be made.
 */
export async function moveToSiteKey(
  registration: ServiceWorkerRegistration,
  existing: PushSubscription,
  deps: SilentMoveDeps,
): Promise<SilentMove | "failed" | null> {
  // Only with the permission already granted: a move must never cause a prompt.
  if (deps.notification?.permission !== "granted") return null;
  // A subscription that does not say its key (a very old browser, a stub) is left as it is: the
  // move is for one known to be made with another key.
  const made = existing.options?.applicationServerKey;
  if (made === null || made === undefined) return null;
  let siteKey: string;
  try {
    siteKey = (await deps.api.getConfig()).vapidPublicKey;
  } catch {
    return null;
  }
  const key = base64UrlToBytes(siteKey);
  if (sameKey(made, key)) return null;
  const old = toSubscriptionJson(existing.toJSON());
  const previous = old === null ? undefined : { endpoint: old.endpoint, auth: old.keys.auth };
  try {
    await existing.unsubscribe();
    const subscription = await withTimeout(
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      deps.timeoutMs,
      "pushManager.subscribe",
    );
    deps.logger.log("Sino: moved this browser's subscription to the site's key");
    return { subscription, previous, applicationServerKey: siteKey };
  } catch (error) {
    deps.logger.warn("Sino: could not move the subscription to the site's key", error);
    return "failed";
  }
}

/**
 * The key a subscription was made with, base64url (what the registration sends, so the server
 * records the key it must sign with); undefined when the browser does not say.
 */
export function applicationServerKeyOf(subscription: Pick<PushSubscription, "options">): string | undefined {
  const key = subscription.options?.applicationServerKey;
  if (key === null || key === undefined) return undefined;
  const bytes = new Uint8Array(key);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
