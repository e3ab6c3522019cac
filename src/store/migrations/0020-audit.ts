import { serialId, type SinoMigration } from "./migration.js";

/**
 * Issue 18 (LGPD): the operators' audit log, and the aggregates retention rolls old rows into.
 *
 * - `audit_log`: one row per operator action (append-only; only the retention purge deletes).
 *   Who (`actor_kind` user / token / anonymous, `actor_id`, `actor_name`), when (`at`), what
 *   (`action`, `target_id`, HTTP `status`), from where (`ip`, `user_agent`) and the request id.
 * - `notification_event_days`: `notification_events` rows past SINO_EVENT_RETENTION_DAYS (or of
 *   removed subscriptions), counted per send, UTC day, type and click action ('' = none / the
 *   notification itself). Several rows may hold the same key: readers sum them.
 * - `subscription_removal_buckets`: `subscription_removals` rows past SINO_REMOVED_RETENTION_DAYS,
 *   counted per site, reason and the quarter hours of creation and removal: every time zone's day
 *   boundaries fall on quarter hours, so the charts' days come out the same in any zone.
 */
export const audit: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("audit_log")
      .$call(serialId(dialect))
      .addColumn("at", "bigint", (col) => col.notNull())
      .addColumn("actor_kind", "text", (col) => col.notNull())
      .addColumn("actor_id", "bigint")
      .addColumn("actor_name", "text")
      .addColumn("action", "text", (col) => col.notNull())
      .addColumn("target_id", "text")
      .addColumn("status", "integer", (col) => col.notNull())
      .addColumn("ip", "text")
      .addColumn("user_agent", "text")
      .addColumn("request_id", "text")
      .execute();
    await db.schema.createIndex("audit_log_at").on("audit_log").columns(["at", "id"]).execute();
    await db.schema.createIndex("audit_log_action_at").on("audit_log").columns(["action", "at"]).execute();
    await db.schema.createIndex("audit_log_actor_at").on("audit_log").columns(["actor_kind", "actor_id", "at"]).execute();

    await db.schema
      .createTable("notification_event_days")
      .addColumn("notification_id", "bigint", (col) => col.notNull())
      .addColumn("day", "text", (col) => col.notNull())
      .addColumn("type", "text", (col) => col.notNull())
      .addColumn("action", "text", (col) => col.notNull().defaultTo(""))
      .addColumn("count", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("notification_event_days_notification").on("notification_event_days").columns(["notification_id", "type"]).execute();

    await db.schema
      .createTable("subscription_removal_buckets")
      .addColumn("site_id", "bigint")
      .addColumn("reason", "text", (col) => col.notNull())
      .addColumn("created_bucket", "bigint", (col) => col.notNull())
      .addColumn("removed_bucket", "bigint", (col) => col.notNull())
      .addColumn("count", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("subscription_removal_buckets_removed").on("subscription_removal_buckets").columns(["removed_bucket"]).execute();
  },

  async down(db) {
    await db.schema.dropTable("subscription_removal_buckets").execute();
    await db.schema.dropTable("notification_event_days").execute();
    await db.schema.dropTable("audit_log").execute();
  },
};
