import { serialId, type SinoMigration } from "./migration.js";

/**
 * The delivery queue. A send (`notifications`) is stored with a few range jobs (`delivery_jobs`,
 * one per ~1,000 subscription ids) in one transaction; workers lease a job and walk its range with
 * a cursor, so nothing is ever stored per subscription up front. Only a push that must be tried
 * again gets a row of its own (`delivery_retries`).
 */
export const delivery: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("notifications")
      .$call(serialId(dialect))
      .addColumn("title", "text", (col) => col.notNull())
      .addColumn("body", "text")
      .addColumn("icon", "text")
      .addColumn("image", "text")
      .addColumn("badge", "text")
      .addColumn("tag", "text", (col) => col.notNull())
      .addColumn("url", "text")
      .addColumn("urgency", "text")
      .addColumn("ttl_seconds", "integer", (col) => col.notNull())
      .addColumn("topic", "text")
      .addColumn("audience", "text", (col) => col.notNull())
      // The exact bytes every worker encrypts: built once, so a resumed send cannot differ.
      .addColumn("payload", "text", (col) => col.notNull())
      .addColumn("status", "text", (col) => col.notNull())
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("expires_at", "bigint", (col) => col.notNull())
      .addColumn("finished_at", "bigint")
      .addColumn("queued", "integer", (col) => col.notNull())
      .addColumn("accepted", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("retrying", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("failed", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("removed", "integer", (col) => col.notNull().defaultTo(0))
      .execute();

    await db.schema
      .createTable("delivery_jobs")
      .$call(serialId(dialect))
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      .addColumn("to_id", "bigint", (col) => col.notNull())
      // Subscriptions with `cursor < id <= to_id` are still to be sent.
      .addColumn("cursor", "bigint", (col) => col.notNull())
      .addColumn("done", "integer", (col) => col.notNull().defaultTo(0))
      // Kept once done: which worker finished the range (operators and tests read it).
      .addColumn("lease_owner", "text")
      .addColumn("lease_until", "bigint", (col) => col.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("delivery_jobs_claim").on("delivery_jobs").columns(["done", "id"]).execute();
    await db.schema.createIndex("delivery_jobs_notification").on("delivery_jobs").column("notification_id").execute();

    await db.schema
      .createTable("delivery_retries")
      .$call(serialId(dialect))
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      // No foreign key: a subscription removed meanwhile must still settle its retry (as removed).
      .addColumn("subscription_id", "bigint", (col) => col.notNull())
      // The attempt this row will make next (2 for the first retry).
      .addColumn("attempt", "integer", (col) => col.notNull())
      .addColumn("not_before", "bigint", (col) => col.notNull())
      .addColumn("last_reason", "text", (col) => col.notNull())
      .addColumn("lease_owner", "text")
      .addColumn("lease_until", "bigint", (col) => col.notNull().defaultTo(0))
      .addUniqueConstraint("delivery_retries_target", ["notification_id", "subscription_id"])
      .execute();
    await db.schema.createIndex("delivery_retries_due").on("delivery_retries").column("not_before").execute();

    // RFC 8292 §4.2: a 403 means the subscription was made with another VAPID key. No retry or
    // removal fixes that, so the row is kept and flagged for the operator.
    await db.schema.alterTable("subscriptions").addColumn("vapid_mismatch_at", "bigint").execute();
  },

  async down(db) {
    await db.schema.alterTable("subscriptions").dropColumn("vapid_mismatch_at").execute();
    await db.schema.dropTable("delivery_retries").execute();
    await db.schema.dropTable("delivery_jobs").execute();
    await db.schema.dropTable("notifications").execute();
  },
};
