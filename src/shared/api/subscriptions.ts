import { z } from "zod";

/**
 * A browser push subscription as `PushSubscription.toJSON()` gives it. The shape is checked here;
 * the meaning (endpoint policy, key encodings, point on the curve) is checked by the server.
 */
export const pushSubscriptionSchema = z.object({
  endpoint: z.string(),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string(),
    auth: z.string(),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/** Removing a subscription needs proof of possession: its auth secret, not just the endpoint. */
export const removeSubscriptionSchema = z.object({
  endpoint: z.string(),
  auth: z.string(),
});
export type RemoveSubscriptionRequest = z.infer<typeof removeSubscriptionSchema>;

/** Proof of possession of a subscription: its endpoint and its auth secret. */
export const subscriptionProofSchema = z.object({
  endpoint: z.string(),
  auth: z.string(),
});
export type SubscriptionProof = z.infer<typeof subscriptionProofSchema>;

/**
 * POST /subscriptions body. `previous` (from `pushsubscriptionchange` or a key rotation) names the
 * subscription this one replaces: with valid proof its channels move here and the old row goes.
 */
export const registerSubscriptionRequestSchema = pushSubscriptionSchema.extend({
  previous: subscriptionProofSchema.optional(),
  /**
   * The site's public key (`data-site` of the snippet): the site the subscription belongs to.
   * Absent: the site whose origin sent the request, or Sino's own. A key whose site's origin is
   * not the request's Origin → 403 `site_origin_mismatch`.
   */
  site: z.string().max(64).optional(),
});
export type RegisterSubscriptionRequest = z.infer<typeof registerSubscriptionRequestSchema>;

/** What the server answers to a registration (201 when new, 200 when it already existed). */
export const subscriptionPresentationSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Slugs of the channels this subscription receives (a new one starts with the default channels). */
  channels: z.array(z.string()),
});
export type SubscriptionPresentation = z.infer<typeof subscriptionPresentationSchema>;
export const registerSubscriptionResponseSchema = z.object({ subscription: subscriptionPresentationSchema });
export type RegisterSubscriptionResponse = z.infer<typeof registerSubscriptionResponseSchema>;

/**
 * PUT /subscriptions/channels → `{ channels }`: replace the subscription's channel choice. Unknown
 * or archived slug → 400 `channel_not_found`; over the limit → 400 `too_many_channels`; wrong
 * auth → 403 `subscription_auth_mismatch`. All or nothing.
 */
export const subscriptionChannelsRequestSchema = subscriptionProofSchema.extend({
  channels: z.array(z.string()),
});
export type SubscriptionChannelsRequest = z.infer<typeof subscriptionChannelsRequestSchema>;
export const subscriptionChannelsResponseSchema = z.object({ channels: z.array(z.string()) });
export type SubscriptionChannelsResponse = z.infer<typeof subscriptionChannelsResponseSchema>;
