/// <reference lib="webworker" />
import type { ApiClient } from "../messaging/api-client.js";
import { base64UrlToBytes } from "../messaging/base64url.js";
import { toSubscriptionJson } from "../messaging/subscription-json.js";
import { applicationServerKeyOf } from "../messaging/silent-move.js";

/**
 * `pushsubscriptionchange` (Push API §11.5). Not in TypeScript's lib yet. Firefox fires it when its
 * push server drops or rotates a channel, with `oldSubscription` set and `newSubscription` null;
 * Chrome does not fire it at all today; Safari sends both. Either may be null.
 */
export interface PushSubscriptionChangeEvent extends ExtendableEvent {
  readonly oldSubscription: PushSubscription | null;
  readonly newSubscription: PushSubscription | null;
}

/**
 * Subscribe again with the same application server key and tell the server, so the visitor keeps
 * receiving notices without visiting the page. The registration names the old subscription
 * (`previous`, with its auth secret as proof) so the server moves its channels to the new one and
 * removes the old row in one transaction. The DELETE after it is for a server that ignored
 * `previous`; it answers 404 otherwise, which counts as done.
 *
 * No `user` is sent: a worker has no localStorage, where the page keeps the person it identified
 * (issue 17). It needs none: the move from `previous` carries the old subscription's person to the
 * new one in the same transaction, and the page's next visit re-registers with the person anyway.
 */
export async function renewSubscription(
  event: Pick<PushSubscriptionChangeEvent, "oldSubscription" | "newSubscription">,
  registration: ServiceWorkerRegistration,
  api: ApiClient,
): Promise<void> {
  const old = event.oldSubscription;
  let renewed = event.newSubscription;
  if (!renewed) {
    // The old key is the one the server signs with; ask the server when the browser forgot it.
    const key = old?.options.applicationServerKey ?? base64UrlToBytes((await api.getConfig()).vapidPublicKey);
    renewed = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  }
  const current = toSubscriptionJson(renewed.toJSON());
  if (!current) throw new Error("The renewed subscription has no keys");
  const previous = old ? toSubscriptionJson(old.toJSON()) : null;
  const moved = previous !== null && previous.endpoint !== current.endpoint;
  // With the key it was made with: the server signs its pushes with that one (issue 20).
  const extras = { applicationServerKey: applicationServerKeyOf(renewed) };
  await api.registerSubscription(current, moved ? { endpoint: previous.endpoint, auth: previous.keys.auth } : undefined, undefined, extras);
  if (previous && moved) {
    await api.removeSubscription({ endpoint: previous.endpoint, auth: previous.keys.auth });
  }
}
