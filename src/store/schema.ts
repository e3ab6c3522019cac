import type { Generated } from "kysely";

/**
 * The database schema as Kysely sees it. Times are epoch milliseconds (INTEGER on SQLite, BIGINT
 * on PostgreSQL, read back as JS numbers) so both dialects compare and sort them the same way.
 */
export interface Schema {
  subscriptions: SubscriptionsTable;
  settings: SettingsTable;
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
}

/** Server-wide key/value settings (the VAPID key pair lives here). */
export interface SettingsTable {
  key: string;
  value: string;
}

/** `scheduled`: waiting for `send_at`, with no jobs yet; the scheduler makes it `queued` when due. */
export type NotificationStatus = "scheduled" | "queued" | "sending" | "completed" | "cancelled" | "failed";

/** A send: one message to an audience, with its delivery counters. */
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
  /** When a scheduled send goes out (epoch ms); null for a send made to go now. */
  send_at: Generated<number | null>;
  expires_at: number;
  finished_at: number | null;
  /** Targets at creation; at the end accepted + failed + removed = queued. */
  queued: number;
  accepted: Generated<number>;
  retrying: Generated<number>;
  failed: Generated<number>;
  removed: Generated<number>;
}

/** A range of subscription ids of one send, walked by one leased worker lane at a time. */
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

/** The channels a send went to; none means everyone. */
export interface NotificationChannelsTable {
  notification_id: number;
  channel_id: number;
}

/** `shown` / `clicked` / `closed`, once per (notification, subscription, type). */
export interface NotificationEventsTable {
  notification_id: number;
  subscription_id: number;
  type: "shown" | "clicked" | "closed";
  created_at: number;
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
}

/** The sites a send was narrowed to; none means every site. */
export interface NotificationSitesTable {
  notification_id: number;
  site_id: number;
}
