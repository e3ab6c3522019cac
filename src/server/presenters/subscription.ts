import type { SubscriptionPresentation } from "../../shared/api/subscriptions.js";
import type { Subscription } from "../../store/subscriptions-repository.js";

/**
 * What a client sees of a stored subscription. Never the keys or the endpoint: the browser already
 * has them, and an API answer should not echo secrets into logs and caches.
 */
export function presentSubscription(subscription: Subscription, channels: string[]): SubscriptionPresentation {
  return {
    // A string, so ids beyond 2^53 (BIGSERIAL) never lose precision in a JSON client.
    id: String(subscription.id),
    createdAt: new Date(subscription.createdAt).toISOString(),
    updatedAt: new Date(subscription.updatedAt).toISOString(),
    channels,
    userId: subscription.personId,
  };
}
