import {
  registerSubscriptionRequestSchema,
  removeSubscriptionSchema,
  subscriptionChannelsRequestSchema,
} from "../../../shared/api/subscriptions.js";

/**
 * The bodies of the subscription routes (their shape; meaning is checked in the handler). A
 * subscription is a few hundred bytes; 4 KiB leaves room for long endpoints and stops anyone from
 * making the server parse megabytes of JSON on a public route.
 */
export const SUBSCRIPTION_BODY_LIMIT = 4096;

/** User agents are informational; very long ones are cut rather than refused. */
export const MAX_USER_AGENT_LENGTH = 512;

export const registerSubscriptionBody = registerSubscriptionRequestSchema;
export const subscriptionChannelsBody = subscriptionChannelsRequestSchema;
export const removeSubscriptionBody = removeSubscriptionSchema;
