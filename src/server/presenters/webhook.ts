import type { Webhook, WebhookMessage } from "../../shared/api/webhooks.js";
import type { WebhookMessageRecord, WebhookRecord } from "../../store/webhooks-repository.js";

/** A webhook as the API shows it: never its secret. */
export function presentWebhook(webhook: WebhookRecord): Webhook {
  return {
    id: String(webhook.id),
    url: webhook.url,
    description: webhook.description,
    events: [...webhook.events],
    enabled: webhook.enabled,
    createdAt: new Date(webhook.createdAt).toISOString(),
    updatedAt: new Date(webhook.updatedAt).toISOString(),
  };
}

/** One message and its delivery state; its id is the `webhook-id` the receiver saw. */
export function presentWebhookMessage(message: WebhookMessageRecord): WebhookMessage {
  return {
    id: message.messageId,
    eventType: message.eventType,
    status: message.status,
    attempts: message.attempts,
    lastStatus: message.lastStatus,
    lastError: message.lastError,
    nextAttemptAt: message.status === "pending" ? new Date(message.notBefore).toISOString() : null,
    createdAt: new Date(message.createdAt).toISOString(),
    deliveredAt: message.deliveredAt === null ? null : new Date(message.deliveredAt).toISOString(),
  };
}
