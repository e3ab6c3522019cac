import { sql, type Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import type { NotificationEventsTable, Schema } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";
import { purgeEndedConsents, type ConsentPurgeResult } from "./consent-records.js";

/** Quarter hours: every time zone's midnight falls on one, so a bucket lies within one day anywhere. */
export const REMOVAL_BUCKET_MS = 15 * 60_000;

/**
 * Retention (LGPD, issue 18): old rows go, the counts the charts and results show stay. Each call
 * handles at most `limit` rows in one short transaction and returns how many it handled (the
 * caller repeats while that is `limit`). Rows are claimed by DELETE … RETURNING and only what this
 * call actually deleted is counted: two processes running at once never count a row twice.
 */
export interface RetentionRepository {
  /** `notification_events` made before `before` → `notification_event_days`. */
  rollUpEvents(before: number, limit: number): Promise<number>;
  /** `notification_events` of subscriptions that no longer exist, made before `before` → `notification_event_days`. */
  rollUpRemovedSubscriptionsEvents(before: number, limit: number): Promise<number>;
  /** `notification_recipients` rows of subscriptions that no longer exist, last updated before `before`: deleted. */
  purgeRemovedSubscriptionsRecipients(before: number, limit: number): Promise<number>;
  /** `subscription_removals` logged before `before` → `subscription_removal_buckets`. */
  rollUpRemovals(before: number, limit: number): Promise<number>;
  /** `audit_log` entries made before `before`: deleted. */
  purgeAudit(before: number, limit: number): Promise<number>;
  /** Consent records (and their changes) ended more than `retentionDays` ago: deleted (consent-records.ts). */
  purgeEndedConsents(now: number, retentionDays: number): Promise<ConsentPurgeResult>;
}

const utcDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const bucketOf = (ms: number): number => Math.floor(ms / REMOVAL_BUCKET_MS) * REMOVAL_BUCKET_MS;

export function createRetentionRepository(database: DatabaseHandle): RetentionRepository {
  async function rollUp(before: number, limit: number, removedOnly: boolean): Promise<number> {
    return writeTransaction(database, async (trx) => {
      const deleted = await trx
        .deleteFrom("notification_events")
        .where(
          // A row-value IN (SQLite ≥ 3.15, PostgreSQL): Kysely's types do not spell it.
          sql<boolean>`(notification_id, subscription_id, type) in (${trx
            .selectFrom("notification_events as e")
            .select(["e.notification_id", "e.subscription_id", "e.type"])
            .where("e.created_at", "<", before)
            .$if(removedOnly, (qb) => qb.where((w) => w.not(w.exists(w.selectFrom("subscriptions").select("subscriptions.id").whereRef("subscriptions.id", "=", "e.subscription_id")))))
            .orderBy("e.created_at")
            .limit(limit)})`,
        )
        .returning(["notification_id", "type", "action", "created_at"])
        .execute();
      await insertEventDays(trx, deleted);
      return deleted.length;
    });
  }

  async function insertEventDays(
    trx: Kysely<Schema>,
    rows: ReadonlyArray<{ notification_id: number; type: NotificationEventsTable["type"]; action: string | null; created_at: number }>,
  ): Promise<void> {
    const counts = new Map<string, { notification_id: number; day: string; type: NotificationEventsTable["type"]; action: string; count: number }>();
    for (const row of rows) {
      const day = utcDay(Number(row.created_at));
      const action = row.action ?? "";
      const key = `${row.notification_id}|${day}|${row.type}|${action}`;
      const entry = counts.get(key) ?? { notification_id: Number(row.notification_id), day, type: row.type, action, count: 0 };
      entry.count += 1;
      counts.set(key, entry);
    }
    if (counts.size > 0) await trx.insertInto("notification_event_days").values([...counts.values()]).execute();
  }

  async function purgeRemovedSubscriptionsRecipients(before: number, limit: number): Promise<number> {
    return writeTransaction(database, async (trx) => {
      const deleted = await trx
        .deleteFrom("notification_recipients")
        .where(
          sql<boolean>`(notification_id, subscription_id) in (${trx
            .selectFrom("notification_recipients as r")
            .select(["r.notification_id", "r.subscription_id"])
            .where("r.updated_at", "<", before)
            .where((w) => w.not(w.exists(w.selectFrom("subscriptions").select("subscriptions.id").whereRef("subscriptions.id", "=", "r.subscription_id"))))
            .limit(limit)})`,
        )
        .returning("notification_id")
        .execute();
      return deleted.length;
    });
  }

  async function rollUpRemovals(before: number, limit: number): Promise<number> {
    return writeTransaction(database, async (trx) => {
      const deleted = await trx
        .deleteFrom("subscription_removals")
        .where("id", "in", (qb) => qb.selectFrom("subscription_removals as s").select("s.id").where("s.removed_at", "<", before).orderBy("s.id").limit(limit))
        .returning(["site_id", "reason", "subscription_created_at", "removed_at"])
        .execute();
      const counts = new Map<string, { site_id: number | null; reason: string; created_bucket: number; removed_bucket: number; count: number }>();
      for (const row of deleted) {
        const siteId = row.site_id === null ? null : Number(row.site_id);
        const created = bucketOf(Number(row.subscription_created_at));
        const removed = bucketOf(Number(row.removed_at));
        const key = `${siteId}|${row.reason}|${created}|${removed}`;
        const entry = counts.get(key) ?? { site_id: siteId, reason: row.reason, created_bucket: created, removed_bucket: removed, count: 0 };
        entry.count += 1;
        counts.set(key, entry);
      }
      if (counts.size > 0) await trx.insertInto("subscription_removal_buckets").values([...counts.values()]).execute();
      return deleted.length;
    });
  }

  async function purgeAudit(before: number, limit: number): Promise<number> {
    const deleted = await database.db
      .deleteFrom("audit_log")
      .where("id", "in", (qb) => qb.selectFrom("audit_log as a").select("a.id").where("a.at", "<", before).orderBy("a.id").limit(limit))
      .returning("id")
      .execute();
    return deleted.length;
  }

  return {
    rollUpEvents: (before, limit) => rollUp(before, limit, false),
    rollUpRemovedSubscriptionsEvents: (before, limit) => rollUp(before, limit, true),
    purgeRemovedSubscriptionsRecipients,
    rollUpRemovals,
    purgeAudit,
    purgeEndedConsents: (now, retentionDays) => purgeEndedConsents(database.db, now, retentionDays),
  };
}
