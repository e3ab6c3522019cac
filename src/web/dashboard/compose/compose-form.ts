import { DEFAULT_NOTIFICATION_TTL, MAX_NOTIFICATION_TTL, NOTIFICATION_LIMITS, isLinkShape } from "../../../shared/api/notifications.js";
import type { CreateNotificationRequest, NotificationAudience, NotificationUrgency } from "../../../shared/api/notifications.js";
import { epochToWallTime, wallTimeToEpoch } from "../../../shared/time/zoned-time.js";

/** The server's limits, by the form's field names (the form calls the link `url`). */
export const COMPOSE_LIMITS = { title: NOTIFICATION_LIMITS.title, body: NOTIFICATION_LIMITS.body, url: NOTIFICATION_LIMITS.link } as const;

/** The TTLs the form offers, in seconds: an hour up to the longest a push service keeps a message. */
export const TTL_CHOICES = [3_600, 6 * 3_600, 86_400, 3 * 86_400, 7 * 86_400, MAX_NOTIFICATION_TTL] as const;

/** The zone schedules are entered in when none is configured: the server's SINO_TIME_ZONE default. */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

export type When = "now" | "later";

export interface ComposeValues {
  title: string;
  body: string;
  url: string;
  icon: string;
  image: string;
  urgency: NotificationUrgency;
  ttl: number;
  when: When;
  date: string;
  time: string;
}

export type ComposeField = "title" | "body" | "url" | "icon" | "image" | "date" | "time";

/** Field → catalog key of the message to show beside it. */
export type ComposeErrors = Partial<Record<ComposeField, string>>;

/** An empty form, with a schedule proposal one hour ahead on the hour. */
export function initialComposeValues(now: number, timeZone: string): ComposeValues {
  const inAnHour = Math.ceil((now + 3_600_000) / 3_600_000) * 3_600_000;
  const { date, time } = epochToWallTime(inAnHour, timeZone);
  return { title: "", body: "", url: "", icon: "", image: "", urgency: "normal", ttl: DEFAULT_NOTIFICATION_TTL, when: "now", date, time };
}

/**
 * A link the server takes (`isLinkShape`: a path on this site, never `javascript:`/`data:` nor
 * `//host`) that is https, or http on this site's own origin, which only the server knows; the
 * page knows it as `siteOrigin`.
 */
export function isAllowedLink(value: string, siteOrigin: string): boolean {
  if (!isLinkShape(value)) return false;
  if (value.startsWith("/")) return true;
  const url = new URL(value);
  return url.protocol === "https:" || url.origin === siteOrigin;
}

/**
 * The client-side mirror of the notification rules: the same checks the server makes, so most mistakes
 * are shown before a round trip. The server's own field errors are shown the same way.
 */
export function validateCompose(values: ComposeValues, context: { now: number; siteOrigin: string; timeZone: string }): ComposeErrors {
  const errors: ComposeErrors = {};
  const title = values.title.trim();
  if (title === "") errors.title = "dashboard.compose.errors.titleRequired";
  else if (title.length > COMPOSE_LIMITS.title) errors.title = "dashboard.compose.errors.titleTooLong";
  if (values.body.trim().length > COMPOSE_LIMITS.body) errors.body = "dashboard.compose.errors.bodyTooLong";

  const links = [
    ["url", "dashboard.compose.errors.urlInvalid"],
    ["icon", "dashboard.compose.errors.iconInvalid"],
    ["image", "dashboard.compose.errors.imageInvalid"],
  ] as const;
  for (const [field, key] of links) {
    const value = values[field].trim();
    if (value === "") continue;
    if (value.length > COMPOSE_LIMITS.url) errors[field] = "dashboard.compose.errors.linkTooLong";
    else if (!isAllowedLink(value, context.siteOrigin)) errors[field] = key;
  }

  if (values.when === "later") {
    if (values.date === "") errors.date = "dashboard.compose.errors.dateRequired";
    if (values.time === "") errors.time = "dashboard.compose.errors.timeRequired";
    if (values.date !== "" && values.time !== "") {
      const at = wallTimeToEpoch({ date: values.date, time: values.time }, context.timeZone);
      if (at === null) errors.date = "dashboard.compose.errors.dateInvalid";
      else if (at <= context.now) errors.time = "dashboard.compose.errors.scheduleInPast";
    }
  }
  return errors;
}

/** The request for a valid form (call validateCompose first). Empty optional fields are left out. */
export function toNotificationRequest(values: ComposeValues, options: { timeZone: string; audience: NotificationAudience }): CreateNotificationRequest {
  const request: CreateNotificationRequest = {
    title: values.title.trim(),
    urgency: values.urgency,
    ttl: values.ttl,
    audience: options.audience,
  };
  const body = values.body.trim();
  if (body !== "") request.body = body;
  for (const field of ["url", "icon", "image"] as const) {
    const value = values[field].trim();
    if (value !== "") request[field] = value;
  }
  // A test send to one's own browser always goes now.
  if (values.when === "later" && options.audience.type !== "endpoint") {
    const at = wallTimeToEpoch({ date: values.date, time: values.time }, options.timeZone);
    if (at !== null) request.sendAt = new Date(at).toISOString();
  }
  return request;
}
