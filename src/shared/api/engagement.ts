import { z } from "zod";
import { API_PREFIX } from "./routes.js";
import { text } from "./text.js";

/**
 * Engagement (issue 18): the subscriber's own quiet hours (public, with proof of possession), a
 * site's delivery settings, and the Painel's active / sleeping split.
 */
export const ENGAGEMENT_ROUTES = {
  /** PUT (public, with proof): set or clear this subscription's quiet hours (`SetQuietHoursRequest`). */
  quietHours: `${API_PREFIX}/subscriptions/quiet-hours`,
  /** POST (public, with proof): read them (`SubscriptionProof` → `QuietHoursResponse`); POST keeps the auth secret out of URLs and logs. */
  quietHoursLookup: `${API_PREFIX}/subscriptions/quiet-hours/lookup`,
  /** GET (signed in): the active / sleeping split per site now and per day (`EngagementResponse`). */
  engagement: `${API_PREFIX}/stats/engagement`,
} as const;

/** `HH:MM-HH:MM`, 24-hour clock; may wrap midnight (`22:00-07:00`); start and end differ. */
export const TIME_RANGE_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether `value` is a well-formed `HH:MM-HH:MM` range of some length (an empty range is refused). */
export function isTimeRange(value: string): boolean {
  const match = TIME_RANGE_PATTERN.exec(value);
  if (match === null) return false;
  return `${match[1]}:${match[2]}` !== `${match[3]}:${match[4]}`;
}

/** Splits a valid range into its two `HH:MM` ends. */
export function timeRangeEnds(value: string): { from: string; to: string } {
  const [from = "", to = ""] = value.split("-");
  return { from, to };
}

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
