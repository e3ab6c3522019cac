import type { Generated } from "kysely";

/**
 * The database schema as Kysely sees it. Times are epoch milliseconds (INTEGER on SQLite, BIGINT
 * on PostgreSQL, read back as JS numbers) so both dialects compare and sort them the same way.
 */
export interface Schema {
  subscriptions: SubscriptionsTable;
  settings: SettingsTable;
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
}

/** Server-wide key/value settings (the VAPID key pair lives here). */
export interface SettingsTable {
  key: string;
  value: string;
}
