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

/** What the server answers to a registration (201 when new, 200 when it already existed). */
export const subscriptionPresentationSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SubscriptionPresentation = z.infer<typeof subscriptionPresentationSchema>;
export const registerSubscriptionResponseSchema = z.object({ subscription: subscriptionPresentationSchema });
export type RegisterSubscriptionResponse = z.infer<typeof registerSubscriptionResponseSchema>;
