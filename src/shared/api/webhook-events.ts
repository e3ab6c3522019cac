/**
 * The events an outbound webhook can subscribe to. Each delivery's body follows the Standard
 * Webhooks convention: `{ "type": "<event>", "timestamp": "<ISO 8601>", "data": { ... } }`.
 * Ids in `data` are strings, as everywhere in the API; `userId` is the host app's person id.
 */
export const WEBHOOK_EVENT_TYPES = [
  /** A send finished: `{ notificationId, status, counts }`. */
  "notification.completed",
  /** A push service accepted the push for one subscription: `{ notificationId, subscriptionId, userId, siteId }`. */
  "recipient.accepted",
  /** The push failed for good (`reason`), or the subscription was gone (`reason: "gone"`). */
  "recipient.failed",
  /**
   * The service worker reported the notification shown / clicked / closed; a click says where:
   * `action` "open" (the notification itself), "1" or "2" (an action button).
   */
  "recipient.shown",
  "recipient.clicked",
  "recipient.closed",
  /** A browser registered (new subscription) / a subscription was removed (`reason`). */
  "subscription.created",
  "subscription.removed",
  /** A subscription was tied to a person (`userId`) / made anonymous again. */
  "person.identified",
  "person.forgotten",
  /** Sent only by the "test" action of one webhook (`{ webhookId }`): never subscribed to. */
  "webhook.test",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** One event as the outbox receives it; `data` is serialised as given. */
export interface WebhookEvent {
  readonly type: WebhookEventType;
  readonly data: Readonly<Record<string, unknown>>;
}
