import { z } from "zod";
import { text } from "./text.js";

/** Avisos: the public list of what was sent, newest first. */
export const NOTICES_PAGE_SIZE = 20;
export const NOTICES_MAX_PAGE_SIZE = 100;

export const noticeChannelSchema = z.object({ slug: z.string(), name: z.string() });

export const noticeSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  url: z.string().nullable(),
  icon: z.string().nullable(),
  image: z.string().nullable(),
  /** Empty when the notification went to everyone. */
  channels: z.array(noticeChannelSchema),
  /** ISO 8601, UTC: when the notification went out. */
  publishedAt: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;

/** GET /notices?channel=&before=&limit= (public). `before` is the previous page's `nextCursor`. */
export const noticesQuerySchema = z.object({
  channel: text().optional(),
  before: text().optional(),
  limit: z.coerce.number().int().min(1).max(NOTICES_MAX_PAGE_SIZE).optional(),
});
export type NoticesQuery = z.input<typeof noticesQuerySchema>;

export const noticesResponseSchema = z.object({
  notices: z.array(noticeSchema),
  nextCursor: z.string().nullable(),
});
export type NoticesResponse = z.infer<typeof noticesResponseSchema>;

/** GET /notices/stream?channel= (public): Server-Sent Events named `NOTICE_STREAM_EVENT` (routes.ts), data = `Notice` JSON. */
export const noticeStreamQuerySchema = z.object({ channel: text().optional() });
