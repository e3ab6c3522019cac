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

/**
 * Bodies that may carry tags (a signed identification with trusted tags, visitor tags): up to 100
 * tags of 64 + 255 characters, up to 4 bytes each in UTF-8, still well under this.
 */
export const TAGGED_BODY_LIMIT = 160 * 1024;

/** User agents are informational; very long ones are cut rather than refused. */
export const MAX_USER_AGENT_LENGTH = 512;

export const registerSubscriptionBody = registerSubscriptionRequestSchema;
export const subscriptionChannelsBody = subscriptionChannelsRequestSchema;
export const removeSubscriptionBody = removeSubscriptionSchema;
