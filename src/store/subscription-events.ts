import type { WebhookEvent } from "../shared/api/webhook-events.js";

/** `subscription.created`: a browser registered for the first time. */
export function subscriptionCreated(id: number, personId: string | null, siteId: number): WebhookEvent {
  return { type: "subscription.created", data: { subscriptionId: String(id), userId: personId, siteId: String(siteId) } };
}

/** `subscription.removed`, as every removal path queues it, with the removal's reason. */
export function subscriptionRemoved(id: number, personId: string | null, siteId: number | null, reason: string): WebhookEvent {
  return {
    type: "subscription.removed",
    data: { subscriptionId: String(id), userId: personId, siteId: siteId === null ? null : String(siteId), reason },
  };
}
