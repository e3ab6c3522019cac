import { z } from "zod";
export { consentInputSchema, type ConsentInput } from "./consent.js";
import { subscriptionProofSchema } from "./subscriptions.js";
import { userIdParamsSchema } from "./people.js";

const time = z.string().describe("ISO 8601");
const nullableTime = time.nullable();

export const consentPresentationSchema = z.object({
  givenAt: time,
  siteId: z.string().nullable(),
  pageOrigin: z.string().nullable(),
  source: z.string(),
  text: z.string(),
  catalogueVersion: z.string(),
  channels: z.array(z.string()),
  endedAt: nullableTime,
  endReason: z.string().nullable(),
});

/** One browser's data as "Meus dados" and the operator's export give it: what is stored, minus the keys. */
export const subscriptionDataSchema = z.object({
  subscription: z.object({
    id: z.string(),
    endpoint: z.string(),
    userAgent: z.string().nullable(),
    browser: z.string().nullable(),
    platform: z.string().nullable(),
    site: z.object({ id: z.string(), origin: z.string().nullable() }),
    createdAt: time,
    updatedAt: time,
    lastSeenAt: time,
    identifiedAt: nullableTime,
    timeZone: z.string().nullable(),
    quietHours: z.string().nullable(),
    declarative: z.boolean(),
    lastShownAt: nullableTime,
    lastVisitAt: nullableTime,
    lastClickedAt: nullableTime,
    reengagedAt: nullableTime,
    warnedAt: nullableTime,
    vapidMismatchAt: nullableTime,
    vapidKeyId: z.string().nullable(),
  }),
  userId: z.string().nullable(),
  channels: z.array(z.string()),
  tags: z.array(z.object({ key: z.string(), value: z.string().nullable(), updatedAt: time })),
  consent: consentPresentationSchema.nullable(),
  /** Each later change of choice (channels, quiet hours, unsubscribe), oldest first. */
  consentChanges: z.array(z.object({ kind: z.string(), value: z.unknown(), at: time })),
  events: z.array(z.object({ notificationId: z.string(), type: z.string(), action: z.string().nullable(), at: time })),
  deliveries: z.array(z.object({ notificationId: z.string(), outcome: z.string(), reason: z.string().nullable(), attempts: z.number(), at: time })),
  pending: z.array(z.object({ notificationId: z.string(), kind: z.enum(["retry", "target"]) })),
});
export type SubscriptionDataPresentation = z.infer<typeof subscriptionDataSchema>;

/** How many rows an erasure removes (or would remove): the confirmation says these. */
export const erasureCountsSchema = z.object({
  subscriptions: z.number(),
  channels: z.number(),
  tags: z.number(),
  events: z.number(),
  deliveries: z.number(),
  pending: z.number(),
  consentRecords: z.number(),
  consentChanges: z.number(),
  personTags: z.number(),
  sends: z.number(),
  webhookMessages: z.number(),
});
export type ErasureCountsPresentation = z.infer<typeof erasureCountsSchema>;

/** POST /subscriptions/data (public, proof of possession) → "Meus dados". */
export const myDataRequestSchema = subscriptionProofSchema;
export const myDataResponseSchema = z.object({ exportedAt: time, data: subscriptionDataSchema });
export type MyDataResponse = z.infer<typeof myDataResponseSchema>;

/** DELETE /subscriptions/data (public, proof of possession) → "Apagar meus dados": what went. */
export const eraseMyDataRequestSchema = subscriptionProofSchema;
export const erasureResponseSchema = z.object({ erased: erasureCountsSchema });
export type ErasureResponse = z.infer<typeof erasureResponseSchema>;

/** GET /privacy/subscriptions/:subscriptionId (admin): a subscription's data, with what erasing it removes. */
export const subscriptionIdParamsSchema = z.strictObject({ subscriptionId: z.string().regex(/^\d{1,15}$/, { error: "subscription_not_found" }) });
export const subscriptionExportResponseSchema = z.object({ exportedAt: time, counts: erasureCountsSchema, data: subscriptionDataSchema });
export type SubscriptionExportResponse = z.infer<typeof subscriptionExportResponseSchema>;

/** GET /privacy/people/:userId (admin): a person's data, every browser of theirs, with the counts. */
export const personDataSchema = z.object({
  userId: z.string(),
  tags: z.array(z.object({ key: z.string(), value: z.string().nullable(), updatedAt: time })),
  sends: z.array(z.object({ notificationId: z.string(), data: z.unknown() })),
  otherDeliveries: z.array(z.object({ notificationId: z.string(), subscriptionId: z.string(), outcome: z.string(), at: time })),
  subscriptions: z.array(subscriptionDataSchema),
});
export const personExportResponseSchema = z.object({ exportedAt: time, counts: erasureCountsSchema, data: personDataSchema });
export type PersonExportResponse = z.infer<typeof personExportResponseSchema>;
export const personParamsSchema = userIdParamsSchema;
