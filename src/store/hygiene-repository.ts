import type { ExpressionBuilder } from "kysely";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";
import { removeSubscriptionsLogged } from "./subscription-removals.js";
import { writeTransaction } from "./write-transaction.js";

export interface HygieneTarget {
  readonly id: number;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  /** The VAPID key the subscription was made with (its warning is signed with it); null: the default. */
  readonly vapidKeyId: number | null;
}

export interface HygieneRepository {
  /**
   * Claims up to `limit` subscriptions last seen at or before `warnBefore` (and after
   * `expireBefore`) that have not been warned since they were last seen, marking them warned in
   * the same statement: with several workers each subscription is claimed, hence warned, once.
   */
  claimWarnings(warnBefore: number, expireBefore: number, now: number, limit: number): Promise<HygieneTarget[]>;
  /** Removes up to `limit` subscriptions last seen at or before `expireBefore`, logged as expired. */
  removeExpired(expireBefore: number, now: number, limit: number): Promise<number>;
  /**
   * Deletes up to `limit` notification_targets rows of one finished notification (completed, cancelled or
   * failed): nothing reads them once its jobs are done. Returns how many it deleted.
   */
  clearFinishedTargets(limit: number): Promise<number>;
}

export function createHygieneRepository(database: DatabaseHandle): HygieneRepository {
  const { db } = database;

  async function claimWarnings(warnBefore: number, expireBefore: number, now: number, limit: number): Promise<HygieneTarget[]> {
    const due = (eb: ExpressionBuilder<Schema, "subscriptions">) =>
      eb.and([
        eb("last_seen_at", "<=", warnBefore),
        eb("last_seen_at", ">", expireBefore),
        eb.or([eb("warned_at", "is", null), eb("warned_at", "<", eb.ref("last_seen_at"))]),
      ]);
    const candidates = await db.selectFrom("subscriptions").select("id").where(due).orderBy("id").limit(limit).execute();
    if (candidates.length === 0) return [];
    // The claim: a conditional UPDATE re-checks "not yet warned"; a concurrent worker that got
    // the same candidates matches nothing (PostgreSQL re-evaluates after the row lock; SQLite
    // has one writer at a time).
    const claimed = await db
      .updateTable("subscriptions")
      .set({ warned_at: now })
      .where("id", "in", candidates.map((c) => Number(c.id)))
      .where(due)
      .returning(["id", "endpoint", "p256dh", "auth", "vapid_key_id"])
      .execute();
    return claimed.map((r) => ({ id: Number(r.id), endpoint: r.endpoint, p256dh: r.p256dh, auth: r.auth, vapidKeyId: r.vapid_key_id === null ? null : Number(r.vapid_key_id) }));
  }

  async function removeExpired(expireBefore: number, now: number, limit: number): Promise<number> {
    return writeTransaction(database, async (trx) => {
      const ids = await trx.selectFrom("subscriptions").select("id").where("last_seen_at", "<=", expireBefore).orderBy("id").limit(limit).execute();
      const removed = await removeSubscriptionsLogged(
        trx,
        ids.map((r) => Number(r.id)),
        "expired",
        now,
      );
      return removed.length;
    });
  }

  async function clearFinishedTargets(limit: number): Promise<number> {
    // From the finished notifications rather than from the targets: the rows of a notification still going out,
    // however many, are never walked to find them.
    const send = await db
      .selectFrom("notifications")
      .select("id")
      .where("status", "in", ["completed", "cancelled", "failed"])
      .where((eb) => eb.exists(eb.selectFrom("notification_targets").select("notification_targets.subscription_id").whereRef("notification_targets.notification_id", "=", "notifications.id")))
      .limit(1)
      .executeTakeFirst();
    if (send === undefined) return 0;
    const id = Number(send.id);
    // A bounded chunk (a short write; SQLite has one writer at a time): the lowest `limit` ids.
    const deleted = await db
      .deleteFrom("notification_targets")
      .where("notification_id", "=", id)
      .where("subscription_id", "in", (eb) =>
        eb.selectFrom("notification_targets").select("subscription_id").where("notification_id", "=", id).orderBy("subscription_id").limit(limit),
      )
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  }

  return { claimWarnings, removeExpired, clearFinishedTargets };
}
