import type { Generated } from "kysely";
import type { AuditLogTable, NotificationEventDaysTable, SubscriptionRemovalBucketsTable } from "./audit-schema.js";

/**
 * The database schema as Kysely sees it. Times are epoch milliseconds (INTEGER on SQLite, BIGINT
 * on PostgreSQL, read back as JS numbers) so both dialects compare and sort them the same way.
 */
export interface Schema {
  subscriptions: SubscriptionsTable;
  settings: SettingsTable;
  organisation: OrganisationTable;
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  login_attempts: LoginAttemptsTable;
  notifications: NotificationsTable;
  delivery_jobs: DeliveryJobsTable;
  delivery_retries: DeliveryRetriesTable;
  idempotency_keys: IdempotencyKeysTable;
  channels: ChannelsTable;
  subscription_channels: SubscriptionChannelsTable;
  notification_channels: NotificationChannelsTable;
  notification_events: NotificationEventsTable;
  subscription_removals: SubscriptionRemovalsTable;
  sites: SitesTable;
  notification_sites: NotificationSitesTable;
  notification_people: NotificationPeopleTable;
  notification_targets: NotificationTargetsTable;
  notification_recipients: NotificationRecipientsTable;
  webhooks: WebhooksTable;
  webhook_messages: WebhookMessagesTable;
  person_tags: PersonTagsTable;
  subscription_tags: SubscriptionTagsTable;
  segments: SegmentsTable;
  segment_sizes: SegmentSizesTable;
  templates: TemplatesTable;
  notification_retry_causes: NotificationRetryCausesTable;
  vapid_keys: VapidKeysTable;
  // 0020-audit (audit-schema.ts)
  audit_log: AuditLogTable;
  notification_event_days: NotificationEventDaysTable;
  subscription_removal_buckets: SubscriptionRemovalBucketsTable;
  feeds: FeedsTable;
  feed_items: FeedItemsTable;
  consent_records: ConsentRecordsTable;
  consent_changes: ConsentChangesTable;
  data_erasures: DataErasuresTable;
  engagement_daily: EngagementDailyTable;
}

export interface SubscriptionsTable {
  /** Ascending: the delivery engine streams subscriptions in id order (`listAfter`). */
  id: Generated<number>;
  /** The push service URL; unique, so a browser registering twice keeps one row. */
  endpoint: string;
  /** The browser's P-256 public key, base64url without padding (RFC 8291 §3.1). */
  p256dh: string;
  /** The 16-byte authentication secret, base64url without padding (RFC 8291 §3.2). */
  auth: string;
  user_agent: string | null;
  created_at: number;
  updated_at: number;
  last_seen_at: number;
  /** Set when a push service answered 403: the subscription belongs to another VAPID key. */
  vapid_mismatch_at: Generated<number | null>;
  /** Hygiene: when the one expiry warning went out; cleared when the browser registers again. */
  warned_at: Generated<number | null>;
  /** The site the browser subscribed on; defaults to the built-in site (Sino's own, id 1). */
  site_id: Generated<number>;
  /**
   * The person (a user of the host app, by the opaque id the site gives) this browser was last
   * identified as; null: anonymous. The last identification on a browser wins.
   */
  person_id: Generated<string | null>;
  identified_at: Generated<number | null>;
  /** The IANA time zone the bell last reported (`America/Sao_Paulo`); null until it does. */
  time_zone: Generated<string | null>;
  /** Lowercase browser and platform names derived from the User-Agent (bowser): `firefox`, `android`. */
  browser: Generated<string | null>;
  platform: Generated<string | null>;
  /** The last click on any of Sino's notifications on this browser. */
  last_clicked_at: Generated<number | null>;
  /** `person_id` folded for search (`foldForSearch`); written with it, null when anonymous. */
  person_key: Generated<string | null>;
  /** 1 when the browser last said, registering, that it shows Declarative Web Push messages. */
  declarative: Generated<number>;
  /** The last `shown` report from this browser. */
  last_shown_at: Generated<number | null>;
  /** The last visit the bell reported (at most one a day); null: none yet, `created_at` stands in. */
  last_visit_at: Generated<number | null>;
  /** The subscriber's own quiet hours, `HH:MM-HH:MM` in their zone (may wrap midnight); null: none. */
  quiet_hours: Generated<string | null>;
  /** When a re-engagement push last went to it (sleeping subscribers get one per sleeping period). */
  reengaged_at: Generated<number | null>;
  /** The VAPID key pair (`vapid_keys.id`) the browser subscribed with; null: Sino's default key. */
  vapid_key_id: Generated<number | null>;
  /** When the bell replaced a subscription made with another key by one under the site's key ("migrada"); null: not migrated. */
  migrated_at: Generated<number | null>;
}

/** Server-wide key/value settings (the VAPID key pair lives here). */
export interface SettingsTable {
  key: string;
  value: string;
}

/**
 * `scheduled`: waiting for `send_at`, with no jobs yet; the scheduler makes it `queued` when due.
 * `no_recipients`: it went out to nobody (no target when it started), finished at once.
 */
export type NotificationStatus = "scheduled" | "queued" | "sending" | "completed" | "cancelled" | "failed" | "no_recipients";

/** On the public Avisos page (`public`), kept off it for now (`hidden`) or taken off for good (`removed`). */
export type NoticeVisibility = "public" | "hidden" | "removed";

/** The organisation's identity: one row, id 1, absent until an admin first sets something. */
export interface OrganisationTable {
  id: number;
  name: string | null;
  /** `#rrggbb`, lower case. */
  accent_color: string | null;
  /** The logo's bytes, base64; with its MIME type and pixel size. */
  logo: string | null;
  logo_type: string | null;
  logo_width: number | null;
  logo_height: number | null;
  updated_at: number;
}

/** A notification: one message to an audience, with its delivery counters. */
export interface NotificationsTable {
  id: Generated<number>;
  title: string;
  body: string | null;
  icon: string | null;
  image: string | null;
  badge: string | null;
  /** `sino-<id>` unless given: a duplicate delivery replaces the notification instead of stacking. */
  tag: string;
  url: string | null;
  urgency: string | null;
  ttl_seconds: number;
  topic: string | null;
  /** JSON, e.g. `{"kind":"everyone"}`: the filter the range query applies. */
  audience: string;
  /** The JSON the service worker reads, exactly as encrypted for every target. */
  payload: string;
  status: NotificationStatus;
  created_at: number;
  /** When a scheduled notification goes out (epoch ms); null for a notification made to go now. */
  send_at: Generated<number | null>;
  expires_at: number;
  finished_at: number | null;
  /** Targets at creation; at the end accepted + failed + removed = queued. */
  queued: number;
  accepted: Generated<number>;
  retrying: Generated<number>;
  failed: Generated<number>;
  removed: Generated<number>;
  /** Engagement rules (caps, quiet hours) apply to marketing only; transactional goes to people or one browser. */
  category: Generated<NotificationCategory>;
  /** Replaces an earlier notification with the same key: the RFC 8030 Topic (hashed) and the tag. */
  collapse_key: Generated<string | null>;
  /** 1 when title, body or link hold `{{placeholders}}` filled per person from notification_people.data. */
  personalised: Generated<number>;
  /** The saved segment a `segment` send used (its audience JSON keeps the expression it resolved). */
  segment_id: Generated<number | null>;
  /** Whether Avisos shows it. */
  notice: Generated<NoticeVisibility>;
  /** When it last left Avisos (hidden or removed), for the live stream; null if it never did. */
  notice_changed_at: Generated<number | null>;
  /** Title and body folded for search (`notificationSearchText`): what the Histórico's words are compared with. */
  search_text: Generated<string | null>;
  /** JSON `[{ label, url }]` (at most two), or null: no action buttons. */
  actions: Generated<string | null>;
  /** 0/1. */
  renotify: Generated<number>;
  require_interaction: Generated<number>;
  silent: Generated<number>;
  app_badge: Generated<number | null>;
  /** The site's JSON value for its page, as text; null: none. */
  data: Generated<string | null>;
  /** The Push API declarative form of `payload`; null for sends stored before migration 0014 (classic for all). */
  declarative_payload: Generated<string | null>;
  /** 0/1: an admin's override of caps, windows and sleeping (breaking news); audit-logged. */
  exempt: Generated<number>;
  /** 0/1: a re-engagement send, which may reach sleeping subscribers once per sleeping period. */
  reengagement: Generated<number>;
  /** Targets skipped over their frequency cap (`limitado`): neither failed nor retried. */
  limited: Generated<number>;
  /** Targets skipped as sleeping (`adormecida`). */
  asleep: Generated<number>;
  /** Targets held now for their local send window or quiet hours. */
  waiting: Generated<number>;
  /** Targets whose TTL ran out while they waited: dropped, never sent late. */
  expired: Generated<number>;
  /** While targets wait for their window: the earliest opening among them (epoch ms); else null. */
  waiting_until: Generated<number | null>;
}

export type NotificationCategory = "marketing" | "transactional";

/** The people a `users` send targets (all their subscriptions), each with its placeholder values. */
export interface NotificationPeopleTable {
  notification_id: number;
  person_id: string;
  /** JSON object (string values), or null. */
  data: string | null;
}

/** A segment notification's subscriptions, taken when the notification starts (the workers walk these). */
export interface NotificationTargetsTable {
  notification_id: number;
  subscription_id: number;
}

/**
 * What became of one push: `accepted` | `retrying` | `failed` | `removed`; kept back by the
 * engagement gate: `limited` | `asleep`; held for the subscriber's window: `waiting`, and dropped
 * when its TTL ended first: `expired`.
 */
export type RecipientOutcome = "accepted" | "retrying" | "failed" | "removed" | "limited" | "asleep" | "waiting" | "expired";

/** One row per (send, subscription), written when its first attempt settles and updated by its retries. */
export interface NotificationRecipientsTable {
  notification_id: number;
  subscription_id: number;
  person_id: string | null;
  site_id: number | null;
  outcome: RecipientOutcome;
  /** Why it failed or is retrying (the classifier's reason), else null. */
  reason: string | null;
  attempts: Generated<number>;
  updated_at: number;
}

/** An https URL an admin registered to receive signed events (Standard Webhooks). */
export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  description: string | null;
  /** JSON array of event types (src/shared/api/webhooks.ts). */
  events: string;
  /** `whsec_` + base64 of 32 random bytes: signs each delivery (HMAC-SHA256). */
  secret: string;
  enabled: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type WebhookMessageStatus = "pending" | "delivered" | "failed";

/** The durable outbox: one row per (webhook, event), retried with backoff until delivered or given up. */
export interface WebhookMessagesTable {
  id: Generated<number>;
  webhook_id: number;
  /** The `webhook-id` header, the same on every attempt. */
  message_id: string;
  event_type: string;
  /** The exact JSON body that is signed and sent. */
  payload: string;
  status: Generated<WebhookMessageStatus>;
  attempts: Generated<number>;
  not_before: number;
  last_status: Generated<number | null>;
  last_error: Generated<string | null>;
  lease_owner: Generated<string | null>;
  lease_until: Generated<number>;
  created_at: number;
  delivered_at: Generated<number | null>;
}

/** A range of subscription ids of one notification, walked by one leased worker lane at a time. */
export interface DeliveryJobsTable {
  id: Generated<number>;
  notification_id: number;
  to_id: number;
  cursor: number;
  /** 0 or 1 (a boolean both dialects store alike). */
  done: Generated<number>;
  lease_owner: string | null;
  lease_until: Generated<number>;
}

/** A push to try again: one row per (send, subscription) while its retries last. */
export interface DeliveryRetriesTable {
  id: Generated<number>;
  notification_id: number;
  subscription_id: number;
  attempt: number;
  not_before: number;
  last_reason: string;
  lease_owner: string | null;
  lease_until: Generated<number>;
}

/** Operators of the Painel. */
export interface UsersTable {
  id: Generated<number>;
  name: string;
  /** Trimmed and lowercased: unique. */
  email: string;
  role: "admin" | "publisher";
  /** argon2id, PHC string format. */
  password_hash: string;
  created_at: number;
  updated_at: number;
  /** 0 or 1: the password is a temporary one (an admin's reset); it must be changed before anything else. */
  must_change_password: Generated<number>;
}

/** A signed-in browser. The cookie holds the random id; only its SHA-256 (hex) is stored. */
export interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  /** When expires_at was last pushed forward (sliding expiry writes at most once an hour). */
  refreshed_at: number;
}

/** API tokens for scripts. The secret is shown once; only its SHA-256 (hex) is stored. */
export interface ApiTokensTable {
  id: Generated<number>;
  name: string;
  scope: "publish" | "admin";
  prefix: string;
  secret_hash: string;
  created_by_id: number;
  created_by_name: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** Sign-in failures per account (`account:<email>`) and per client address (`address:<ip>`). */
export interface LoginAttemptsTable {
  key: string;
  failures: number;
  last_failure_at: number;
  locked_until: Generated<number>;
}

/** A create request's `Idempotency-Key`, remembered per caller with the answer it got. */
export interface IdempotencyKeysTable {
  id: Generated<number>;
  /** `user:<id>` or `token:<id>`. */
  scope: string;
  key: string;
  /** SHA-256 (hex) of the request it was first used with. */
  request_hash: string;
  notification_id: number | null;
  status_code: number;
  /** The JSON body answered the first time. */
  response: string;
  created_at: number;
  expires_at: number;
}

/** A channel (*canal*) operators define and subscribers choose. Booleans are 0/1 on both dialects. */
export interface ChannelsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  description: string | null;
  is_default: Generated<number>;
  archived: Generated<number>;
  created_at: number;
}

/** A subscriber's choice: one row per (subscription, channel). */
export interface SubscriptionChannelsTable {
  subscription_id: number;
  channel_id: number;
}

/** The channels a notification went to; none means everyone. */
export interface NotificationChannelsTable {
  notification_id: number;
  channel_id: number;
}

/** `shown` / `clicked` / `closed`, once per (notification, subscription, type). */
export interface NotificationEventsTable {
  notification_id: number;
  subscription_id: number;
  type: "shown" | "clicked" | "closed" | "not_shown";
  created_at: number;
  /** A click's action button ("1", "2"); null: the notification itself, or not a click. */
  action: Generated<string | null>;
}

/** Why a subscription went: the user unsubscribed, the push service said gone, hygiene, an operator. */
export type RemovalReason = "unsubscribed" | "gone" | "expired" | "operator";

export interface SubscriptionRemovalsTable {
  id: Generated<number>;
  removed_at: number;
  reason: RemovalReason;
  subscription_created_at: number;
  /** The removed subscription's site (null for removals logged before sites existed). */
  site_id: Generated<number | null>;
}

/** An origin allowed to collect subscribers. The built-in row is Sino's own (SINO_PUBLIC_URL). */
export interface SitesTable {
  id: Generated<number>;
  /** Normalised origin (`https://www.exemplo.com.br`); null only on the built-in row. */
  origin: string | null;
  /** The public key the snippet carries (`data-site`). */
  key: string;
  /** 0 or 1. */
  built_in: Generated<number>;
  created_at: number;
  /** Signs person ids (HMAC-SHA256, hex): null until an admin generates one. Shown once. */
  identity_secret: Generated<string | null>;
  /** The secret before the last rotation, still accepted until `identity_previous_until`. */
  identity_previous_secret: Generated<string | null>;
  identity_previous_until: Generated<number | null>;
  identity_rotated_at: Generated<number | null>;
  /** 1 (default): identification needs a valid signature; 0: any id is accepted (a warned choice). */
  identity_verification: Generated<number>;
  /** 1 (default): the site's pages may set visitor tags; 0: refused (`visitor_tags_disabled`). */
  visitor_tags: Generated<number>;
  /** Marketing pushes per subscription per rolling 24 hours; null: the server's default (SINO_FREQUENCY_CAP). */
  frequency_cap: Generated<number | null>;
  /** `HH:MM-HH:MM`, local to each subscriber; null: the server's default (SINO_SEND_WINDOW). */
  send_window: Generated<string | null>;
  /** The IANA zone of subscribers that reported none; null: SINO_TIME_ZONE. */
  time_zone: Generated<string | null>;
  /** The VAPID key pair its new subscriptions are made with and signed with; null: Sino's default. */
  vapid_key_id: Generated<number | null>;
}

/** A VAPID key pair besides Sino's default one: generated for a site, or imported from an earlier sender. */
export interface VapidKeysTable {
  id: Generated<number>;
  /** Uncompressed P-256 point, base64url (what `applicationServerKey` takes). */
  public_key: string;
  /** The private scalar, base64url. Never shown again, never logged. */
  private_key: string;
  source: "generated" | "imported";
  created_at: number;
}

/** The sites a notification was narrowed to; none means every site. */
export interface NotificationSitesTable {
  notification_id: number;
  site_id: number;
}

/** One tag of a person or a subscription: `key`, or `key:value`, typed for comparisons. */
interface TagColumns {
  key: string;
  /** Null: a key-only tag. */
  value: string | null;
  /** The value as a number, when it is one. */
  num_value: number | null;
  /** The value as epoch ms, when it is an ISO date (`2026-01-31`, `2026-01-31T10:00:00Z`). */
  time_value: number | null;
  updated_at: number;
}

/** Trusted tags: set by the host's server only (API, or signed with the person's identity). */
export interface PersonTagsTable extends TagColumns {
  person_id: string;
}

/** Visitor tags: set by the page on one browser; a site may turn them off. */
export interface SubscriptionTagsTable extends TagColumns {
  subscription_id: number;
}

/** Which tags a segment's conditions read. */
export type SegmentTagKinds = "trusted" | "visitor" | "all";

export interface SegmentsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  /** Canonical JSON tree of the expression (src/shared/segments). */
  expression: string;
  tag_kinds: SegmentTagKinds;
  created_at: number;
  updated_at: number;
}

/** A saved segment's size, measured once a day (UTC). */
export interface SegmentSizesTable {
  segment_id: number;
  /** `YYYY-MM-DD`. */
  day: string;
  subscriptions: number;
  people: number;
  measured_at: number;
}

/** A saved template (*modelo*): a notification's content under a name (0012-templates). */
export interface TemplatesTable {
  id: Generated<number>;
  name: string;
  title: string;
  body: string | null;
  url: string | null;
  icon: string | null;
  image: string | null;
  urgency: string;
  ttl_seconds: number;
  collapse_key: string | null;
  /** JSON of the API's audience (all, channels, segment), or null: chosen when sending. */
  audience: string | null;
  created_at: number;
  updated_at: number;
  actions: Generated<string | null>;
  renotify: Generated<number>;
  require_interaction: Generated<number>;
  silent: Generated<number>;
  badge: Generated<string | null>;
  app_badge: Generated<number | null>;
  data: Generated<string | null>;
}

/** Why a notification's pushes are retried: one row per push service host, reason and HTTP status. */
export interface NotificationRetryCausesTable {
  notification_id: number;
  /** The push service's host, never the endpoint. */
  host: string;
  /** The classifier's retry reason (src/push/classify-response.ts). */
  reason: string;
  /** HTTP status answered; 0 when none came. */
  status: number;
  /** Retries scheduled for this cause so far. */
  pushes: number;
  first_at: number;
  last_at: number;
  /** The soonest retry its last batch scheduled. */
  next_attempt_at: number;
  /** The start of the push service's answer body, when there was one. */
  detail: string | null;
}

export type FeedMode = "auto" | "draft";

/** An RSS or Atom feed an admin registered (0023-feeds): who it goes to, how, and its poll state. */
export interface FeedsTable {
  id: Generated<number>;
  url: string;
  /** The feed's own title, learned at the first successful poll. */
  title: Generated<string | null>;
  /** Null: everyone. */
  channel_id: number | null;
  mode: FeedMode;
  interval_seconds: number;
  enabled: Generated<number>;
  /** 1 once the first poll stored the items already there as `seen`. */
  primed: Generated<number>;
  etag: Generated<string | null>;
  last_modified: Generated<string | null>;
  next_poll_at: number;
  lease_owner: Generated<string | null>;
  lease_until: Generated<number>;
  polls: Generated<number>;
  items_found: Generated<number>;
  errors: Generated<number>;
  last_polled_at: Generated<number | null>;
  last_success_at: Generated<number | null>;
  /** A stable code (`feeds:pollErrors.<code>` in the catalog). */
  last_error: Generated<string | null>;
  last_error_at: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

/**
 * `seen`: there at the first poll (never sent); `sent`: published (auto, or a draft approved);
 * `pending`: a draft waiting for an operator; `dismissed`: a draft an operator turned down;
 * `skipped`: more new items than one poll publishes (the oldest are not sent); `refused`: it
 * could not become a push (`reason`: the notification's error code).
 */
export type FeedItemStatus = "seen" | "sent" | "pending" | "dismissed" | "skipped" | "refused";

export interface FeedItemsTable {
  id: Generated<number>;
  feed_id: number;
  /** guid (or Atom id), else the link. */
  item_key: string;
  title: string;
  summary: string | null;
  link: string | null;
  image: string | null;
  status: FeedItemStatus;
  reason: Generated<string | null>;
  notification_id: Generated<number | null>;
  created_at: number;
  decided_at: Generated<number | null>;
}

/** Where the consent was given: Sino's bell button or its soft prompt (0019-consent). */
export type ConsentSource = "bell" | "soft_prompt";

/** One subscription's consent (LGPD Art. 8); outlives the subscription for SINO_CONSENT_RETENTION_DAYS. */
export interface ConsentRecordsTable {
  /** Not a foreign key: the record stays after the subscription goes. */
  subscription_id: number;
  site_id: number | null;
  /** The page's origin as the browser sent it (`Origin`), else the site's. */
  page_origin: string | null;
  source: ConsentSource;
  /** The exact text the visitor saw and accepted. */
  text: string;
  /** The version of the bell's catalogue the text came from (a hash of its texts). */
  catalogue_version: string;
  /** JSON array of the channel slugs the subscription started with. */
  channels: string;
  given_at: number;
  /** When the subscription ended (unsubscribed, gone, expired, removed); null while it lives. */
  ended_at: Generated<number | null>;
  end_reason: Generated<string | null>;
}

/** A later change of choice: `channels` (JSON slugs), `quiet_hours` (`HH:MM-HH:MM` or null), `unsubscribed`. */
export type ConsentChangeKind = "channels" | "quiet_hours" | "unsubscribed";

export interface ConsentChangesTable {
  id: Generated<number>;
  subscription_id: number;
  kind: ConsentChangeKind;
  /** JSON of the new choice; null for `unsubscribed`. */
  value: string | null;
  created_at: number;
}

/** That an erasure happened, never whose data it was: `rows` is JSON of counts per kind. */
export interface DataErasuresTable {
  id: Generated<number>;
  erased_at: number;
  requested_by: "subscriber" | "operator";
  scope: "subscription" | "person";
  rows: string;
}

/** One site's active / sleeping split on one UTC day (migration 0018-engagement). */
export interface EngagementDailyTable {
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  site_id: number;
  active: number;
  sleeping: number;
  recorded_at: number;
}
