import type { Generated } from "kysely";
import type { NotificationEventsTable } from "./schema.js";

/** Migration 0020-audit's tables (see its comment). */

/** Who acted: a signed-in operator, an API token, or nobody known (a failed sign-in). */
export type AuditActorKind = "user" | "token" | "anonymous";

export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  actor_kind: AuditActorKind;
  /** The user's or token's id; null when anonymous. */
  actor_id: number | null;
  /** The user's name, the token's name, or the address a failed sign-in was tried with. */
  actor_name: string | null;
  action: string;
  /** The id of what was acted on (a notification, user, token, site…); never a subscriber's data. */
  target_id: string | null;
  status: number;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
}

export interface NotificationEventDaysTable {
  notification_id: number;
  /** `YYYY-MM-DD`, UTC, of the events counted. */
  day: string;
  type: NotificationEventsTable["type"];
  /** A click's action button ("1", "2"); "" otherwise. */
  action: Generated<string>;
  count: number;
}

export interface SubscriptionRemovalBucketsTable {
  site_id: number | null;
  reason: string;
  /** Start (epoch ms) of the quarter hour the subscriptions were made in. */
  created_bucket: number;
  /** Start (epoch ms) of the quarter hour they were removed in. */
  removed_bucket: number;
  count: number;
}
