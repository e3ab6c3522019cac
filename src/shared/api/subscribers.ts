import { z } from "zod";
import { subscriptionTagsSchema } from "./tags.js";
import { text } from "./text.js";
import { SUBSCRIBER_ACTIVITIES, subscriberActivitySchema } from "./engagement.js";

/** Operators' view of subscriptions (admin). Never the endpoint or keys. */
export const SUBSCRIBERS_PAGE_SIZE = 50;
export const SUBSCRIBERS_MAX_PAGE_SIZE = 200;

export const subscriberSchema = z.object({
  id: z.string(),
  /** e.g. "Chrome", "Firefox"; null when the User-Agent was not recognised or not sent. */
  browser: z.string().nullable(),
  /** e.g. "Android", "Windows"; null when unknown. */
  os: z.string().nullable(),
  /** The host app's person this browser was identified as; null: anonymous. */
  userId: z.string().nullable(),
  /** Slugs of the chosen channels. */
  channels: z.array(z.string()),
  createdAt: z.string(),
  /** The last registration from this browser (the page re-registers on every visit). */
  lastSeenAt: z.string(),
  /**
   * When its push service refused Sino's VAPID key (403: the subscription was made with another
   * key); nothing is sent to it until the browser registers again. Null when all is well.
   */
  vapidMismatchAt: z.string().nullable(),
  /** The IANA time zone its bell reported (`America/Sao_Paulo`); null when unknown. */
  timeZone: z.string().nullable(),
  /** Its person's trusted tags (none when anonymous) and the visitor tags its page set. */
  tags: subscriptionTagsSchema,
  /** Engagement: last push shown, last click, last visit (ISO 8601 or null), and whether it sleeps (SINO_SLEEPING_DAYS). */
  activity: subscriberActivitySchema,
});
export type Subscriber = z.infer<typeof subscriberSchema>;

/** GET /subscribers?channel=&site=&browser=&page=&pageSize= (admin); `page` starts at 1. */
export const subscribersQuerySchema = z.object({
  channel: text().optional(),
  /** A site id (GET /sites): only the subscribers made on it. */
  site: z.string().regex(/^\d{1,15}$/, { error: "site_not_found" }).optional(),
  browser: text().optional(),
  /** Only subscriptions of people whose user id starts with this, ignoring case and accents. */
  user: text().max(128).optional(),
  /** `active` or `sleeping` (no click and no visit for SINO_SLEEPING_DAYS). */
  activity: z.enum(SUBSCRIBER_ACTIVITIES, { error: "validation_failed" }).optional(),
  page: z.coerce.number().int().min(1).optional(),
  pageSize: z.coerce.number().int().min(1).max(SUBSCRIBERS_MAX_PAGE_SIZE).optional(),
});
export type SubscribersQuery = z.input<typeof subscribersQuerySchema>;

export const subscribersResponseSchema = z.object({
  subscribers: z.array(subscriberSchema),
  total: z.number().int(),
});
export type SubscribersResponse = z.infer<typeof subscribersResponseSchema>;
