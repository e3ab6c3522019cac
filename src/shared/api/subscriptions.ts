import { z } from "zod";
import { text } from "./text.js";
import { tagsPatchSchema, tagsSchema } from "./tags.js";
import { userClaimSchema } from "./user-id.js";
import { consentInputSchema } from "./consent.js";

/**
 * A browser push subscription as `PushSubscription.toJSON()` gives it. The shape is checked here;
 * the meaning (endpoint policy, key encodings, point on the curve) is checked by the server.
 */
export const pushSubscriptionSchema = z.strictObject({
  endpoint: text(),
  expirationTime: z.number().nullable().optional(),
  keys: z.strictObject({
    p256dh: text(),
    auth: text(),
  }),
});
export type PushSubscriptionJson = z.infer<typeof pushSubscriptionSchema>;

/** Removing a subscription needs proof of possession: its auth secret, not just the endpoint. */
export const removeSubscriptionSchema = z.strictObject({
  endpoint: text(),
  auth: text(),
});
export type RemoveSubscriptionRequest = z.infer<typeof removeSubscriptionSchema>;

/** Proof of possession of a subscription: its endpoint and its auth secret. */
export const subscriptionProofSchema = z.strictObject({
  endpoint: text(),
  auth: text(),
});
export type SubscriptionProof = z.infer<typeof subscriptionProofSchema>;

/**
 * The person signed in on the page, with optional trusted tags (merged into the person's tags).
 * With `tags`, `signature` is HMAC-SHA256(identity secret, `${id}\n${canonicalTags(tags)}`) and is
 * required even on a site that does not verify ids (403 `user_signature_required`/`_invalid`).
 */
export const signedUserClaimSchema = userClaimSchema.extend({ tags: tagsSchema.optional() });
export type SignedUserClaim = z.infer<typeof signedUserClaimSchema>;

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
  site: text().max(64).optional(),
  /**
   * The person signed in on the page (the host app's user id and, on a site that verifies, its
   * signature): identified in the same transaction as the registration. A refused identification
   * (403 `user_signature_required` / `user_signature_invalid`, 409 `site_identity_secret_missing`)
   * refuses the registration too: nothing is stored.
   */
  user: signedUserClaimSchema.optional(),
  /** The browser's IANA time zone (`America/Sao_Paulo`); one Intl does not know is ignored. */
  timeZone: text().max(64).optional(),
  /**
   * Whether the bell found Declarative Web Push support in this browser (see src/client). Sent with every registration; the latest value wins, so a
   * browser that stops reporting it gets the classic payload again. Absent: false.
   */
  declarative: z.boolean().optional(),
  /**
   * The VAPID public key the browser subscribed with (`PushSubscription.options.applicationServerKey`,
   * base64url): its pushes are signed with that key when Sino holds it. Absent: the site's current key.
   */
  applicationServerKey: text().max(128).optional(),
  /**
   * The bell replaced a subscription made with another key (another sender's, or the site's
   * previous one) by this one, silently, on a return visit: counted as "migrada" per site.
   */
  migrated: z.boolean().optional(),
  /**
   * The consent the bell showed when the visitor turned notifications on (LGPD): recorded with a
   * new subscription in the same transaction; ignored for one that already has a record.
   */
  consent: consentInputSchema.optional(),
});
export type RegisterSubscriptionRequest = z.infer<typeof registerSubscriptionRequestSchema>;

/** What the server answers to a registration (201 when new, 200 when it already existed). */
export const subscriptionPresentationSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Slugs of the channels this subscription receives (a new one starts with the default channels). */
  channels: z.array(z.string()),
  /** The person it is identified as; null: anonymous. */
  userId: z.string().nullable(),
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
  channels: z.array(text()),
});
export type SubscriptionChannelsRequest = z.infer<typeof subscriptionChannelsRequestSchema>;
export const subscriptionChannelsResponseSchema = z.object({ channels: z.array(z.string()) });
export type SubscriptionChannelsResponse = z.infer<typeof subscriptionChannelsResponseSchema>;

/**
 * PUT /subscriptions/user → 200 `{ subscription }`: the browser (proving possession) identifies its
 * subscription as a person, verified against the subscription's own site. The last identification
 * wins: a subscription identified as someone else moves to this person.
 */
export const identifySubscriptionRequestSchema = subscriptionProofSchema.extend({ user: signedUserClaimSchema });
export type IdentifySubscriptionRequest = z.infer<typeof identifySubscriptionRequestSchema>;

/**
 * PUT /subscriptions/tags (public, proof of possession) → 200 `{ tags }`: the page merges visitor
 * tags on its subscription (`null` removes one); never a person's (trusted) tags. 403
 * `visitor_tags_disabled` where the site has them off.
 */
export const visitorTagsRequestSchema = subscriptionProofSchema.extend({ tags: tagsPatchSchema });
export type VisitorTagsRequest = z.infer<typeof visitorTagsRequestSchema>;

/** DELETE /subscriptions/user → 200 `{ subscription }` (userId null): anonymous again, channels kept. */
export const forgetSubscriptionRequestSchema = subscriptionProofSchema;
export type ForgetSubscriptionRequest = z.infer<typeof forgetSubscriptionRequestSchema>;

export const subscriptionResponseSchema = z.object({ subscription: subscriptionPresentationSchema });
export type SubscriptionResponse = z.infer<typeof subscriptionResponseSchema>;

/**
 * PUT / DELETE /people/:userId/subscriptions (API token of scope publish or admin, or a signed-in
 * admin) → 200 `{ subscription }`: links the subscription with this endpoint to the person, or
 * unlinks it if it is theirs. No signature: the caller's token is the proof. Unknown endpoint →
 * 404 `subscription_not_found`.
 */
export const personSubscriptionRequestSchema = z.strictObject({ endpoint: text() });
export type PersonSubscriptionRequest = z.infer<typeof personSubscriptionRequestSchema>;
