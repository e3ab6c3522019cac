import { z } from "zod";
import { text } from "./text.js";

/**
 * RSS and Atom feeds an admin registers (issue 20): Sino polls each and turns its new items into
 * sends, at once (`auto`) or as drafts an operator approves (`draft`).
 */
export const MAX_FEEDS = 50;
export const FEED_URL_MAX_LENGTH = 2048;
export const FEED_ITEMS_PAGE_SIZE = 50;
/** The hard floor of any feed's poll interval; SINO_FEED_MIN_INTERVAL_SECONDS may raise it. */
export const FEED_MIN_INTERVAL_SECONDS = 60;
export const FEED_MAX_INTERVAL_SECONDS = 86_400;
export const FEED_MODES = ["auto", "draft"] as const;
export const FEED_ITEM_STATUSES = ["seen", "sent", "pending", "dismissed", "skipped", "refused"] as const;

const urlSchema = text({ error: "feed_url_invalid" }).trim().min(1, { error: "feed_url_invalid" }).max(FEED_URL_MAX_LENGTH, { error: "feed_url_invalid" });
const modeSchema = z.enum(FEED_MODES, { error: "feed_mode_invalid" });
/** A channel's slug, or null for everyone. */
const channelSchema = text({ error: "channel_not_found" }).trim().min(1, { error: "channel_not_found" }).max(64, { error: "channel_not_found" }).nullable();
const intervalSchema = z
  .number({ error: "feed_interval_invalid" })
  .int({ error: "feed_interval_invalid" })
  .min(FEED_MIN_INTERVAL_SECONDS, { error: "feed_interval_invalid" })
  .max(FEED_MAX_INTERVAL_SECONDS, { error: "feed_interval_invalid" });

export const feedSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** The feed's own title, once a poll read it. */
  title: z.string().nullable(),
  /** null: everyone. */
  channel: z.object({ slug: z.string(), name: z.string() }).nullable(),
  mode: z.enum(FEED_MODES),
  intervalSeconds: z.number(),
  enabled: z.boolean(),
  /** The first poll has marked the items already there as seen. */
  primed: z.boolean(),
  polls: z.number(),
  /** New items found after the first poll. */
  itemsFound: z.number(),
  errors: z.number(),
  /** Drafts waiting for an operator. */
  pending: z.number(),
  lastPolledAt: z.string().nullable(),
  lastSuccessAt: z.string().nullable(),
  /** The last poll's error (cleared by a successful one): a stable code and its pt-BR text. */
  lastError: z.object({ code: z.string(), message: z.string(), at: z.string() }).nullable(),
  nextPollAt: z.string(),
  createdAt: z.string(),
});
export type Feed = z.infer<typeof feedSchema>;

export const feedsResponseSchema = z.object({ feeds: z.array(feedSchema), minIntervalSeconds: z.number(), defaultIntervalSeconds: z.number() });
export type FeedsResponse = z.infer<typeof feedsResponseSchema>;
export const feedResponseSchema = z.object({ feed: feedSchema });
export type FeedResponse = z.infer<typeof feedResponseSchema>;

/** POST /feeds (admin). */
export const createFeedRequestSchema = z.strictObject({
  url: urlSchema,
  channel: channelSchema.optional(),
  mode: modeSchema,
  intervalSeconds: intervalSchema.optional(),
});
export type CreateFeedRequest = z.input<typeof createFeedRequestSchema>;

/** PATCH /feeds/:id (admin): any of the fields. */
export const updateFeedRequestSchema = z.strictObject({
  channel: channelSchema.optional(),
  mode: modeSchema.optional(),
  intervalSeconds: intervalSchema.optional(),
  enabled: z.boolean({ error: "validation_failed" }).optional(),
});
export type UpdateFeedRequest = z.input<typeof updateFeedRequestSchema>;

export const feedItemSchema = z.object({
  id: z.string(),
  /** guid (or Atom id), else the link. */
  key: z.string(),
  title: z.string(),
  summary: z.string().nullable(),
  link: z.string().nullable(),
  image: z.string().nullable(),
  status: z.enum(FEED_ITEM_STATUSES),
  /** `refused`: the send's error code. */
  reason: z.string().nullable(),
  /** The send it became (sent items). */
  notificationId: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type FeedItem = z.infer<typeof feedItemSchema>;

export const feedItemsQuerySchema = z.object({
  status: z.enum(FEED_ITEM_STATUSES, { error: "validation_failed" }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const feedItemsResponseSchema = z.object({ items: z.array(feedItemSchema), total: z.number(), page: z.number(), pageSize: z.number() });
export type FeedItemsResponse = z.infer<typeof feedItemsResponseSchema>;
export const feedItemResponseSchema = z.object({ item: feedItemSchema });
export type FeedItemResponse = z.infer<typeof feedItemResponseSchema>;
