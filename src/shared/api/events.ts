import { z } from "zod";
import { text } from "./text.js";

/**
 * What the service worker reports about a notification it showed. Only the subscription (proved by
 * its endpoint and auth secret) identifies the reporter; nothing else about the person is stored.
 */
/** `not_shown`: the service worker received the push but could not show it as sent (engagement, issue 18). */
export const NOTIFICATION_EVENT_TYPES = ["shown", "clicked", "closed", "not_shown"] as const;
export const notificationEventTypeSchema = z.enum(NOTIFICATION_EVENT_TYPES);
export type NotificationEventType = z.infer<typeof notificationEventTypeSchema>;

/** POST /events (public) → 204; recorded once per (notification, subscription, type). */
export const notificationEventRequestSchema = z.strictObject({
  notificationId: text(),
  type: notificationEventTypeSchema,
  endpoint: text(),
  auth: text(),
  /**
   * With `clicked`: the action button clicked ("1" or "2"); absent: the notification itself
   * ("abrir"). With another type → 400 `validation_failed`.
   */
  action: z.enum(["1", "2"]).optional(),
});
export type NotificationEventRequest = z.infer<typeof notificationEventRequestSchema>;

/** The counts a notification's results gain from events. `clickRate` = clicked / accepted, null when none accepted. */
export const eventCountsSchema = z.object({
  shown: z.number().int(),
  clicked: z.number().int(),
  closed: z.number().int(),
  notShown: z.number().int(),
  clickRate: z.number().nullable(),
});
export type EventCounts = z.infer<typeof eventCountsSchema>;
