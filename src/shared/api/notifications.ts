import { z } from "zod";
import { userIdSchema } from "./user-id.js";
import { siteIdSchema } from "./sites.js";
import { hasControlCharacters, multiLineText, text } from "./text.js";
import { segmentExpressionInputSchema, segmentTagKindsSchema } from "./segment-expression.js";
import { PAYLOAD_LIMITS } from "./notification-payload.js";

/**
 * Notifications (*envios*) over the API: what POST /notifications takes, what every notification answer
 * looks like, the history list and Visão geral. The dashboard's compose form mirrors these rules.
 */
export const NOTIFICATION_LIMITS = {
  /** macOS cuts titles past ~80 characters; Android a little later. */
  title: 80,
  body: 300,
  link: 2_048,
  /** Idempotency-Key header length (Stripe allows 255). */
  idempotencyKey: 255,
  /** How far ahead a notification may be scheduled. */
  scheduleDays: 366,
  /** People in one `users` send. */
  users: 10_000,
  /** A person's placeholder `data`, as JSON bytes. */
  personData: 1_024,
  /** A collapse key (the notification's tag; hashed into the RFC 8030 Topic). */
  collapseKey: 64,
} as const;

/**
 * `marketing` (the default) or `transactional`: about one person's own business (an order, an
 * appointment). Transactional is only for a `users` or an `endpoint` audience.
 */
export const NOTIFICATION_CATEGORIES = ["marketing", "transactional"] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

/** RFC 8030 §5.3 urgencies. */
export const NOTIFICATION_URGENCIES = ["very-low", "low", "normal", "high"] as const;
export type NotificationUrgency = (typeof NOTIFICATION_URGENCIES)[number];

/** RFC 8030 §5.2: how long a push service keeps the message; FCM keeps one at most four weeks. */
export const MAX_NOTIFICATION_TTL = 28 * 86_400;
export const DEFAULT_NOTIFICATION_TTL = 86_400;

/** `no_recipients`: it went out when nobody was there to receive it (no subscription matched). */
export const NOTIFICATION_STATUSES = ["scheduled", "queued", "sending", "completed", "cancelled", "failed", "no_recipients"] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];
/** A notification in one of these never changes again. */
export const FINAL_STATUSES: readonly NotificationStatus[] = ["completed", "cancelled", "failed", "no_recipients"];

/**
 * Whether a send shows on the public Avisos page: `public` (the default), `hidden` (kept off it,
 * may be shown again) or `removed` (taken off for good). A send to one browser (`endpoint`) is
 * never a notice, whatever this says.
 */
export const NOTICE_VISIBILITIES = ["public", "hidden", "removed"] as const;
export type NoticeVisibility = (typeof NOTICE_VISIBILITIES)[number];

/** `Idempotency-Key`: same key and same body, same notification and same answer (kept 24 hours). */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;

/**
 * A link a notification may carry: an https URL, or a path on this site (`/avisos`). Never
 * `javascript:`/`data:`, nor `//host`. (An http URL on the server's own origin is accepted by
 * the server too, which knows its origin; see the route.)
 */
export function isLinkShape(value: string): boolean {
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\");
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}

const link = text({ error: "link_invalid" })
  .trim()
  .max(NOTIFICATION_LIMITS.link, { error: "link_invalid" })
  .refine(isLinkShape, { error: "link_invalid" });

/**
 * Narrows an "all" or "channels" audience to subscribers made on these sites (ids, from GET
 * /sites); absent or empty: every site.
 */
const audienceSites = z.array(siteIdSchema).max(100);
/** The channels of a "channels" audience (slugs, at most 100). */
const audienceChannels = z.array(text()).max(100);

/** Shared by the server and the Painel: no `Buffer` here. */
const UTF8 = new TextEncoder();

/** An action button (at most two): a single-line label and the link it opens, checked like `url`. */
export const notificationActionSchema = z.strictObject({
  label: text({ error: "action_label_required" })
    .trim()
    .min(1, { error: "action_label_required" })
    .max(PAYLOAD_LIMITS.actionLabel, { error: "action_label_too_long" }),
  url: text({ error: "action_link_invalid" })
    .trim()
    .max(NOTIFICATION_LIMITS.link, { error: "action_link_invalid" })
    .refine(isLinkShape, { error: "action_link_invalid" }),
});
export type NotificationAction = z.infer<typeof notificationActionSchema>;

export const notificationActionsSchema = z.array(notificationActionSchema, { error: "too_many_actions" }).max(PAYLOAD_LIMITS.actions, { error: "too_many_actions" });

/** Deeper JSON than this is refused (`data_invalid`): no site needs it, and a parser may choke on it. */
const MAX_DATA_DEPTH = 32;

/** Whether `value` is plain JSON (what `JSON.parse` can give back), at most MAX_DATA_DEPTH deep. */
export function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > MAX_DATA_DEPTH) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJsonValue(item, depth + 1));
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every((item) => isJsonValue(item, depth + 1));
  }
  return false;
}

/**
 * `data` for the site's page (the `sino:click` event, `useSino().onClick`): any JSON value, at most
 * 1 KB as UTF-8 JSON. `null` means none.
 */
export const notificationDataSchema = z
  .unknown()
  .refine((value) => value === undefined || isJsonValue(value), { error: "data_invalid", abort: true })
  .refine((value) => value === undefined || UTF8.encode(JSON.stringify(value)).length <= PAYLOAD_LIMITS.dataBytes, { error: "data_too_large" });

/** A person's placeholder values (`{{nome}}`): at most 1 KB of JSON. */
export const personDataSchema = z
  .record(z.string(), z.unknown(), { error: "user_data_invalid" })
  // Refinements rather than typed members: a bad value must say `user_data_invalid`, not make
  // the whole entry fail the `users` union as an invalid id.
  .refine((data) => Object.entries(data).every(([key, value]) => !hasControlCharacters(key) && isPersonValue(value)), { error: "user_data_invalid" })
  .refine((data) => UTF8.encode(JSON.stringify(data)).length <= NOTIFICATION_LIMITS.personData, { error: "user_data_too_large" })
  .transform((data) => data as Record<string, string | number | boolean>);

/** A placeholder value: text (line breaks allowed, as in a body), a finite number or a boolean. */
function isPersonValue(value: unknown): boolean {
  if (typeof value === "string") return !hasControlCharacters(value, "multi-line");
  return typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

/** One person of a `users` audience: the user id, or the id with its placeholder values. */
export const audiencePersonSchema = z.union([userIdSchema, z.strictObject({ id: userIdSchema, data: personDataSchema.optional() })], { error: "user_id_invalid" });
export type AudiencePerson = z.infer<typeof audiencePersonSchema>;

export const audienceSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("all"), sites: audienceSites.optional() }),
  /** One browser: "enviar para mim". The subscription must exist. */
  z.strictObject({ type: z.literal("endpoint"), endpoint: text({ error: "subscription_not_found" }).min(1, { error: "subscription_not_found" }).max(2_048) }),
  /** Subscribers of any of these active channels (slugs). */
  z.strictObject({ type: z.literal("channels"), channels: audienceChannels.min(1, { error: "channel_not_found" }), sites: audienceSites.optional() }),
  /**
   * Every subscription of these people (the host app's users), on any site unless narrowed.
   * Repeated ids count once (the last `data` wins); unknown ids are no error.
   */
  z.strictObject({
    type: z.literal("users"),
    users: z.array(audiencePersonSchema).min(1, { error: "too_many_users" }).max(NOTIFICATION_LIMITS.users, { error: "too_many_users" }),
    sites: audienceSites.optional(),
  }),
  /**
   * The subscriptions a segment matches when the send goes out (a scheduled send reads a saved
   * segment then): a saved segment's id, or an expression (text or JSON tree) with the tags it
   * reads. Marketing only.
   */
  z
    .strictObject({
      type: z.literal("segment"),
      segment: z.union([z.string().regex(/^\d{1,15}$/), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)], { error: "segment_not_found" }).optional(),
      expression: segmentExpressionInputSchema.optional(),
      tagKinds: segmentTagKindsSchema.optional(),
      sites: audienceSites.optional(),
    })
    .refine((audience) => (audience.segment === undefined) !== (audience.expression === undefined), { error: "validation_failed", path: ["segment"] }),
]);
export type NotificationAudience = z.infer<typeof audienceSchema>;

/** POST /notifications. */
export const createNotificationRequestSchema = z.strictObject({
  title: text({ error: "title_required" })
    .trim()
    .min(1, { error: "title_required" })
    .max(NOTIFICATION_LIMITS.title, { error: "title_too_long" }),
  body: multiLineText({ error: "body_too_long" }).trim().max(NOTIFICATION_LIMITS.body, { error: "body_too_long" }).optional(),
  url: link.optional(),
  icon: link.optional(),
  image: link.optional(),
  urgency: z.enum(NOTIFICATION_URGENCIES, { error: "urgency_invalid" }).default("normal"),
  ttl: z.number({ error: "ttl_invalid" }).int({ error: "ttl_invalid" }).min(0, { error: "ttl_invalid" }).max(MAX_NOTIFICATION_TTL, { error: "ttl_invalid" }).default(DEFAULT_NOTIFICATION_TTL),
  audience: audienceSchema.default({ type: "all" }),
  category: z.enum(NOTIFICATION_CATEGORIES, { error: "category_invalid" }).default("marketing"),
  /** A later notification with the same key replaces this one on the device instead of stacking. */
  collapseKey: text({ error: "collapse_key_invalid" })
    .min(1, { error: "collapse_key_invalid" })
    .max(NOTIFICATION_LIMITS.collapseKey, { error: "collapse_key_invalid" })
    .optional(),
  /** ISO 8601 instant with an offset; absent: now. */
  sendAt: z.iso.datetime({ offset: true, error: "send_at_invalid" }).optional(),
  /** Up to two action buttons (`label` ≤ 30 characters, `url` like `url`). */
  actions: notificationActionsSchema.optional(),
  /** Alert again when it replaces a shown notification: only with a `collapseKey` (ignored without one). */
  renotify: z.boolean({ error: "validation_failed" }).optional(),
  /** Stays on screen until the person acts on it (where the system allows). */
  requireInteraction: z.boolean({ error: "validation_failed" }).optional(),
  /** No sound nor vibration. */
  silent: z.boolean({ error: "validation_failed" }).optional(),
  /** The small monochrome icon of Android's status bar: a link, like `icon`. */
  badge: text({ error: "badge_invalid" })
    .trim()
    .max(NOTIFICATION_LIMITS.link, { error: "badge_invalid" })
    .refine(isLinkShape, { error: "badge_invalid" })
    .optional(),
  /** The count on the installed app's icon (`navigator.setAppBadge`), 0 clears it. */
  appBadge: z
    .number({ error: "app_badge_invalid" })
    .int({ error: "app_badge_invalid" })
    .min(0, { error: "app_badge_invalid" })
    .max(PAYLOAD_LIMITS.appBadge, { error: "app_badge_invalid" })
    .optional(),
  /** Any JSON value (≤ 1,024 bytes) handed to the site's page when the notification is clicked. */
  data: notificationDataSchema.optional(),
  /**
   * `hidden`: not published on the public Avisos page (a test, an internal message). Absent:
   * `public`, except for a send to people (`users`), which speaks to them and stays `hidden`.
   */
  notice: z.enum(["public", "hidden"], { error: "notice_invalid" }).optional(),
  /**
   * gates: an admin's override of frequency caps, send windows and sleeping subscribers (breaking
   * news); 403 `exempt_admin_only` for anyone else. Audit-logged.
   */
  exempt: z.boolean({ error: "validation_failed" }).optional(),
  /** gates: a re-engagement send: also reaches sleeping subscribers, each at most once per sleeping period. */
  reengagement: z.boolean({ error: "validation_failed" }).optional(),
});
export type CreateNotificationRequest = z.input<typeof createNotificationRequestSchema>;

export const notificationCountsSchema = z.object({
  /** Targets (taken when the notification goes out). */
  queued: z.number(),
  accepted: z.number(),
  /** Waiting for another attempt right now. */
  retrying: z.number(),
  failed: z.number(),
  /** The push service said the subscription is gone (404/410): removed. */
  removed: z.number(),
  /** Marketing held for the subscriber's window (local time, quiet hours): goes at its opening. */
  waiting: z.number(),
  /** Dropped because the TTL would end before the subscriber's window opens: never sent late. */
  expired: z.number(),
  /** What service workers reported (POST /events); on a single notification's answer (GET /notifications/:id). */
  shown: z.number().optional(),
  clicked: z.number().optional(),
  closed: z.number().optional(),
  /** Pushes a service worker received but could not show as sent (unreadable payload, showNotification failed). */
  notShown: z.number().optional(),
  /** clicked / accepted; null when nothing was accepted. */
  clickRate: z.number().nullable().optional(),
  /** Clicks by where: the notification itself (`open`) or its action button 1 or 2; on a single notification's answer. */
  clickedByAction: z.object({ open: z.number(), "1": z.number(), "2": z.number() }).optional(),
  /** gates: kept back over their frequency cap (`limitado`): neither failed nor retried. */
  limited: z.number(),
  /** gates: kept back as sleeping (`adormecida`). At the end accepted + failed + removed + limited + asleep = queued. */
  asleep: z.number(),
});
export type NotificationCounts = z.infer<typeof notificationCountsSchema>;

/** Who a notification went to, as shown: an "endpoint" send names no endpoint (it is a browser's capability URL). */
export const presentedAudienceSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("all"), sites: z.array(z.string()).optional() }),
  z.object({ type: z.literal("endpoint") }),
  z.object({ type: z.literal("channels"), channels: z.array(z.string()), sites: z.array(z.string()).optional() }),
  /** How many people (never their ids: a send may name 10,000). */
  z.object({ type: z.literal("users"), users: z.number(), sites: z.array(z.string()).optional() }),
  /**
   * A segment: the saved segment's id and name (null for an expression written for the send) and
   * the canonical text of the expression it went out with (null while a saved segment's send waits).
   */
  z.object({ type: z.literal("segment"), segment: z.string().nullable(), name: z.string().nullable(), expression: z.string().nullable(), sites: z.array(z.string()).optional() }),
]);
export type PresentedAudience = z.infer<typeof presentedAudienceSchema>;

export const notificationSchema = z.object({
  id: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  url: z.string().nullable(),
  icon: z.string().nullable(),
  image: z.string().nullable(),
  urgency: z.enum(NOTIFICATION_URGENCIES),
  ttl: z.number(),
  audience: presentedAudienceSchema,
  category: z.enum(NOTIFICATION_CATEGORIES),
  collapseKey: z.string().nullable(),
  status: z.enum(NOTIFICATION_STATUSES),
  /** Scheduled notifications: when it goes (or went) out. */
  sendAt: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  counts: notificationCountsSchema,
  /** While targets wait for their window: the next opening (when the next of them go); else null. */
  waitingUntil: z.string().nullable(),
  /** Whether the public Avisos page shows it. */
  notice: z.enum(NOTICE_VISIBILITIES),
  /** Action buttons, in order (ids "1" and "2"). */
  actions: z.array(z.object({ label: z.string(), url: z.string() })),
  renotify: z.boolean(),
  requireInteraction: z.boolean(),
  silent: z.boolean(),
  badge: z.string().nullable(),
  appBadge: z.number().nullable(),
  /** The site's data; null when none. */
  data: z.unknown(),
  /** gates: an admin's override of caps, windows and sleeping. */
  exempt: z.boolean(),
  /** gates: may reach sleeping subscribers, once per sleeping period. */
  reengagement: z.boolean(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** PATCH /notifications/:id/notice: show a send on Avisos again, or keep it off. */
export const setNoticeRequestSchema = z.strictObject({
  notice: z.enum(["public", "hidden"], { error: "notice_invalid" }),
});
export type SetNoticeRequest = z.infer<typeof setNoticeRequestSchema>;

/**
 * Why pushes of a send are waiting for another attempt, by push service: the classifier's reason,
 * the HTTP status (null when no answer came: a timeout, a refused connection…), how many retries
 * it caused, and when the next one of its last batch is due.
 */
export const retryCauseSchema = z.object({
  /** The push service's host (`fcm.googleapis.com`); never a subscription's endpoint. */
  host: z.string(),
  reason: z.string(),
  status: z.number().int().nullable(),
  /** Retries scheduled for this cause over the send's life. */
  pushes: z.number().int(),
  firstAt: z.string(),
  lastAt: z.string(),
  nextAttemptAt: z.string(),
  /** The start of the push service's answer, when it sent one. */
  detail: z.string().nullable(),
});
export type RetryCause = z.infer<typeof retryCauseSchema>;

/** GET /notifications/:id/retries. */
export const notificationRetriesSchema = z.object({
  /** Pushes waiting for another attempt now. */
  waiting: z.number().int(),
  /** When the soonest of them is due (ISO 8601); null when none waits. */
  nextAttemptAt: z.string().nullable(),
  /** Newest first. */
  causes: z.array(retryCauseSchema),
});
export type NotificationRetries = z.infer<typeof notificationRetriesSchema>;

export const notificationResponseSchema = z.object({ notification: notificationSchema });
export type NotificationResponse = z.infer<typeof notificationResponseSchema>;

/** POST /notifications (and the quick publish): the send, and who it reaches. */
export const createNotificationResponseSchema = notificationResponseSchema.extend({
  /** Subscriptions targeted (for a scheduled send: those that exist now). */
  targeted: z.number(),
  /** The ids of a `users` send that have no subscription (to reach by e-mail or SMS); `[]` otherwise. */
  usersWithoutSubscriptions: z.array(z.string()),
});
export type CreateNotificationResponse = z.infer<typeof createNotificationResponseSchema>;

/** GET /notifications: newest first, searchable in title and body. */
export const listNotificationsQuerySchema = z.object({
  query: text().trim().max(200).optional(),
  status: z.enum(NOTIFICATION_STATUSES, { error: "validation_failed" }).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export type ListNotificationsQuery = z.input<typeof listNotificationsQuerySchema>;

export const notificationsPageSchema = z.object({
  notifications: z.array(notificationSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type NotificationsPage = z.infer<typeof notificationsPageSchema>;

/** A comma-separated list in a query string (`obras,eventos`): each item trimmed, blanks and repeats dropped. */
function queryList(maxLength: number) {
  return text()
    .max(maxLength)
    .transform((value) => [...new Set(value.split(",").map((item) => item.trim()).filter((item) => item !== ""))]);
}

/** GET /audience counts the subscriptions of at most this many people. */
export const AUDIENCE_SIZE_MAX_USERS = 1_000;

/**
 * GET /audience?channels=obras,eventos&sites=2,5 (signed in): how many subscriptions a send with
 * that audience would reach now, and the channels and sites by name, for the compose
 * confirmation. The same narrowing a send takes, checked by the same rules: no `channels` is
 * everyone, no `sites` every site; an unknown or archived channel is 400 `channel_not_found`, an
 * unknown site 400 `audience_site_not_found`.
 */
export const audienceSizeQuerySchema = z.object({
  channels: queryList(4_100).pipe(audienceChannels).optional(),
  sites: queryList(1_700).pipe(audienceSites).optional(),
  /**
   * `users=ana&users=bia`: a `users` send's people (repeated, since an id may hold a comma). At
   * most 1,000: the whole request line must fit Node's 16 KB of headers.
   */
  users: z
    .union([userIdSchema, z.array(userIdSchema)], { error: "user_id_invalid" })
    .transform((value) => [...new Set(Array.isArray(value) ? value : [value])])
    .pipe(z.array(z.string()).max(AUDIENCE_SIZE_MAX_USERS, { error: "too_many_users" }))
    .optional(),
  /** `segment=12`: a saved segment's subscriptions now (with `sites`; channels do not apply). */
  segment: z.string().regex(/^\d{1,15}$/, { error: "segment_not_found" }).optional(),
});
export type AudienceSizeQuery = z.input<typeof audienceSizeQuerySchema>;
export const audienceSizeSchema = z.object({
  recipients: z.number().int(),
  /** The chosen channels in the order asked; empty for everyone. */
  channels: z.array(z.object({ slug: z.string(), name: z.string() })),
  /** The chosen sites in the order asked; empty for every site. */
  sites: z.array(z.object({ id: z.string(), origin: z.string() })),
  /** With `users`: how many distinct people were asked for. */
  people: z.number().int().optional(),
  /** gates: of `recipients`, how many a marketing send made now would leave out: at their frequency cap, and sleeping. */
  limited: z.number().int(),
  asleep: z.number().int(),
});
export type AudienceSize = z.infer<typeof audienceSizeSchema>;

/** GET /overview: Visão geral. */
export const overviewSchema = z.object({
  subscribers: z.object({ total: z.number() }),
  recentSends: z.array(notificationSchema),
});
export type Overview = z.infer<typeof overviewSchema>;

/** The Server-Sent Events of GET /notifications/:id/events: each `progress` event's data is a `Notification`. */
export const NOTIFICATION_PROGRESS_EVENT = "progress";

/** Quick publish's channel that means everyone; defined beside the route (routes.ts), which the public page reads without zod. */
export { QUICK_PUBLISH_EVERYONE } from "./routes.js";

/** Quick publish `X-Priority` (ntfy's 1–5) → urgency. */
export const PRIORITY_URGENCY: Readonly<Record<string, NotificationUrgency>> = {
  "1": "very-low",
  "2": "low",
  "3": "normal",
  "4": "high",
  "5": "high",
  min: "very-low",
  low: "low",
  default: "normal",
  high: "high",
  max: "high",
  urgent: "high",
};
