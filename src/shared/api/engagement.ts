import { z } from "zod";
import { isTimeRange } from "./engagement-rule.js";
import { text } from "./text.js";

export { ENGAGEMENT_ROUTES, TIME_RANGE_PATTERN, isTimeRange, timeRangeEnds } from "./engagement-rule.js";

/**
 * Engagement (issue 18): the subscriber's own quiet hours (public, with proof of possession), a
 * site's delivery settings, and the Painel's active / sleeping split.
 */
export const quietHoursSchema = z.string().refine(isTimeRange, { error: "quiet_hours_invalid" });

/** PUT /subscriptions/quiet-hours → 200 `QuietHoursResponse`; `quietHours: null` clears them. */
export const setQuietHoursRequestSchema = z.strictObject({
  endpoint: text(),
  auth: text(),
  quietHours: quietHoursSchema.nullable(),
});
export type SetQuietHoursRequest = z.infer<typeof setQuietHoursRequestSchema>;

export const quietHoursLookupRequestSchema = z.strictObject({ endpoint: text(), auth: text() });

export const quietHoursResponseSchema = z.object({
  /** `HH:MM-HH:MM` in the subscriber's own time zone, or null: none (the site's send window only). */
  quietHours: z.string().nullable(),
});
export type QuietHoursResponse = z.infer<typeof quietHoursResponseSchema>;

/** A site's delivery settings (null: the server's default), and the defaults themselves. */
export const siteDeliverySettingsSchema = z.object({
  /** Marketing pushes per subscription per rolling 24 h (1..50); null: SINO_FREQUENCY_CAP. */
  frequencyCap: z.number().int().nullable(),
  /** `HH:MM-HH:MM` local to each subscriber; null: SINO_SEND_WINDOW. */
  sendWindow: z.string().nullable(),
  /** IANA zone of subscribers that reported none; null: SINO_TIME_ZONE. */
  timeZone: z.string().nullable(),
});
export type SiteDeliverySettings = z.infer<typeof siteDeliverySettingsSchema>;

export const MAX_FREQUENCY_CAP = 50;

/** The fields PATCH /sites/:id accepts for them (each optional; null returns to the default). */
export const siteDeliverySettingsPatch = {
  frequencyCap: z.number({ error: "site_frequency_cap_invalid" }).int({ error: "site_frequency_cap_invalid" }).min(1, { error: "site_frequency_cap_invalid" }).max(MAX_FREQUENCY_CAP, { error: "site_frequency_cap_invalid" }).nullable().optional(),
  sendWindow: z.string({ error: "site_send_window_invalid" }).refine(isTimeRange, { error: "site_send_window_invalid" }).nullable().optional(),
  timeZone: z.string({ error: "site_time_zone_invalid" }).max(64, { error: "site_time_zone_invalid" }).nullable().optional(),
} as const;

/** The server's defaults a site falls back to, shown beside its own settings. */
export const deliveryDefaultsSchema = z.object({ frequencyCap: z.number().int(), sendWindow: z.string(), timeZone: z.string() });
export type DeliveryDefaults = z.infer<typeof deliveryDefaultsSchema>;

/** One site's split now. */
export const siteEngagementSchema = z.object({
  siteId: z.string(),
  active: z.number().int(),
  sleeping: z.number().int(),
});

/** One UTC day's split, summed over the sites asked for. */
export const engagementDaySchema = z.object({
  /** `YYYY-MM-DD`. */
  day: z.string(),
  active: z.number().int(),
  sleeping: z.number().int(),
});
export type EngagementDay = z.infer<typeof engagementDaySchema>;

/** GET /stats/engagement?site=&days= (signed in). */
export const engagementQuerySchema = z.object({
  site: z.string().regex(/^\d{1,15}$/, { error: "site_not_found" }).optional(),
  days: z.coerce.number().int().min(1).max(400).optional(),
});

export const engagementResponseSchema = z.object({
  /** SINO_SLEEPING_DAYS: no click and no visit for this many days makes a subscription sleeping. */
  sleepingDays: z.number().int(),
  sites: z.array(siteEngagementSchema),
  /** Oldest first; days the task did not record are absent. */
  history: z.array(engagementDaySchema),
});
export type EngagementResponse = z.infer<typeof engagementResponseSchema>;

/** The subscribers list's `activity` filter. */
export const SUBSCRIBER_ACTIVITIES = ["active", "sleeping"] as const;
export type SubscriberActivity = (typeof SUBSCRIBER_ACTIVITIES)[number];


export const subscriberActivitySchema = z.object({
  lastShownAt: z.string().nullable(),
  lastClickedAt: z.string().nullable(),
  /** Null: no visit since visits were recorded (its creation stands in). */
  lastVisitAt: z.string().nullable(),
  sleeping: z.boolean(),
});
export type SubscriberActivityFacts = z.infer<typeof subscriberActivitySchema>;
