import { DEFAULT_NOTIFICATION_TTL, MAX_NOTIFICATION_TTL, NOTIFICATION_LIMITS, isLinkShape } from "../../../shared/api/notifications.js";
import type { CreateNotificationRequest, NotificationAudience, NotificationUrgency } from "../../../shared/api/notifications.js";
import { PAYLOAD_LIMITS } from "../../../shared/api/notification-payload.js";
import { epochToWallTime, wallTimeToEpoch } from "../../../shared/time/zoned-time.js";

/** The server's limits, by the form's field names (the form calls the link `url`). */
export const COMPOSE_LIMITS = { title: NOTIFICATION_LIMITS.title, body: NOTIFICATION_LIMITS.body, url: NOTIFICATION_LIMITS.link } as const;


/** An action button as the form holds it (both texts as typed). */
export interface ComposeAction {
  label: string;
  url: string;
}

/** The TTLs the form offers, in seconds: an hour up to the longest a push service keeps a message. */
export const TTL_CHOICES = [3_600, 6 * 3_600, 86_400, 3 * 86_400, 7 * 86_400, MAX_NOTIFICATION_TTL] as const;


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
  /** Up to PAYLOAD_LIMITS.actions buttons; a row with both texts empty is left out. */
  actions: ComposeAction[];
  /** Notify again when replacing a notification with the same collapse key (only sent with a key). */
  renotify: boolean;
  requireInteraction: boolean;
  silent: boolean;
  badge: string;
  /** The app badge count as typed ("" = none). */
  appBadge: string;
  /** Custom data as JSON text ("" = none). */
  data: string;
}

export type ActionField = `actions.${0 | 1}.${"label" | "url"}`;
export type ComposeField = "title" | "body" | "url" | "icon" | "image" | ActionField | "badge" | "appBadge" | "data" | "date" | "time";

/** Field → catalog key of the message to show beside it. */
export type ComposeErrors = Partial<Record<ComposeField, string>>;

/** An empty form, with a schedule proposal one hour ahead on the hour. */
export function initialComposeValues(now: number, timeZone: string): ComposeValues {
  const inAnHour = Math.ceil((now + 3_600_000) / 3_600_000) * 3_600_000;
  const { date, time } = epochToWallTime(inAnHour, timeZone);
  return {
    title: "",
    body: "",
    url: "",
    icon: "",
    image: "",
    urgency: "normal",
    ttl: DEFAULT_NOTIFICATION_TTL,
    when: "now",
    date,
    time,
    actions: [],
    renotify: false,
    requireInteraction: false,
    silent: false,
    badge: "",
    appBadge: "",
    data: "",
  };
}

const UTF8 = new TextEncoder();

/** The custom data as the server takes it: parsed JSON and its size, or why not. */
export type ParsedData = { ok: true; value: unknown; bytes: number } | { ok: false; error: "invalid" } | { ok: false; error: "tooLarge"; bytes: number };

/** "" is no data; anything else must be JSON whose compact form fits PAYLOAD_LIMITS.dataBytes (UTF-8). */
export function parseData(text: string): ParsedData | null {
  if (text.trim() === "") return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: "invalid" };
  }
  const bytes = UTF8.encode(JSON.stringify(value)).length;
  return bytes > PAYLOAD_LIMITS.dataBytes ? { ok: false, error: "tooLarge", bytes } : { ok: true, value, bytes };
}

/** The app badge as typed: null when empty, NaN when not a whole number in range. */
export function parseAppBadge(text: string): number | null {
  const value = text.trim();
  if (value === "") return null;
  if (!/^\d{1,5}$/.test(value)) return Number.NaN;
  const count = Number(value);
  return count <= PAYLOAD_LIMITS.appBadge ? count : Number.NaN;
}

/** The action rows that go out: both texts trimmed, fully empty rows left out. */
export function filledActions(actions: readonly ComposeAction[]): { index: 0 | 1; label: string; url: string }[] {
  return actions
    .slice(0, PAYLOAD_LIMITS.actions)
    .map((action, index) => ({ index: index as 0 | 1, label: action.label.trim(), url: action.url.trim() }))
    .filter((action) => action.label !== "" || action.url !== "");
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
    ["badge", "dashboard.compose.full.errors.badgeInvalid"],
  ] as const;
  for (const [field, key] of links) {
    const value = values[field].trim();
    if (value === "") continue;
    if (value.length > COMPOSE_LIMITS.url) errors[field] = "dashboard.compose.errors.linkTooLong";
    else if (!isAllowedLink(value, context.siteOrigin)) errors[field] = key;
  }

  for (const action of filledActions(values.actions)) {
    const label: ActionField = `actions.${action.index}.label`;
    const url: ActionField = `actions.${action.index}.url`;
    if (action.label === "") errors[label] = "dashboard.compose.full.errors.actionLabelRequired";
    else if (action.label.length > PAYLOAD_LIMITS.actionLabel) errors[label] = "dashboard.compose.full.errors.actionLabelTooLong";
    if (action.url === "") errors[url] = "dashboard.compose.full.errors.actionLinkRequired";
    else if (action.url.length > COMPOSE_LIMITS.url) errors[url] = "dashboard.compose.errors.linkTooLong";
    else if (!isAllowedLink(action.url, context.siteOrigin)) errors[url] = "dashboard.compose.full.errors.actionLinkInvalid";
  }
  if (Number.isNaN(parseAppBadge(values.appBadge))) errors.appBadge = "dashboard.compose.full.errors.appBadgeInvalid";
  const data = parseData(values.data);
  if (data !== null && !data.ok) errors.data = data.error === "invalid" ? "dashboard.compose.full.errors.dataInvalid" : "dashboard.compose.full.errors.dataTooLarge";

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
export function toNotificationRequest(values: ComposeValues, options: { timeZone: string; audience: NotificationAudience; collapseKey?: string }): CreateNotificationRequest {
  const request: CreateNotificationRequest = {
    title: values.title.trim(),
    urgency: values.urgency,
    ttl: values.ttl,
    audience: options.audience,
  };
  const body = values.body.trim();
  if (body !== "") request.body = body;
  for (const field of ["url", "icon", "image", "badge"] as const) {
    const value = values[field].trim();
    if (value !== "") request[field] = value;
  }
  const actions = filledActions(values.actions);
  if (actions.length > 0) request.actions = actions.map(({ label, url }) => ({ label, url }));
  const collapseKey = options.collapseKey?.trim() ?? "";
  if (collapseKey !== "") {
    request.collapseKey = collapseKey;
    // Renotify means something only when a notification replaces another (same tag).
    if (values.renotify) request.renotify = true;
  }
  if (values.requireInteraction) request.requireInteraction = true;
  if (values.silent) request.silent = true;
  const appBadge = parseAppBadge(values.appBadge);
  if (appBadge !== null && !Number.isNaN(appBadge)) request.appBadge = appBadge;
  const data = parseData(values.data);
  if (data?.ok) request.data = data.value;
  // A test send to one's own browser always goes now.
  if (values.when === "later" && options.audience.type !== "endpoint") {
    const at = wallTimeToEpoch({ date: values.date, time: values.time }, options.timeZone);
    if (at !== null) request.sendAt = new Date(at).toISOString();
  }
  return request;
}
