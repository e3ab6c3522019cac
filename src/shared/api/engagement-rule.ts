import { API_PREFIX } from "./routes.js";

/**
 * The engagement routes and the `HH:MM-HH:MM` rule, without zod: the browser-side client (the
 * embed's byte budget) reads them from here.
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

