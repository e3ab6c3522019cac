import { serialId, type SinoMigration } from "./migration.js";

/**
 * The columns several parts of issues 18 (trust: caps, local time, sleeping subscribers) and 20
 * (VAPID keys per site) read and write, added at once so each part builds on the same schema.
 * Tables of their own (consent records, audit log, feeds…) come in later migrations.
 *
 * - `subscriptions`: `last_shown_at` (the last `shown` report), `last_visit_at` (the bell reports a
 *   visit at most once a day; null: none since this migration, `created_at` stands in),
 *   `quiet_hours` (the subscriber's own, `HH:MM-HH:MM` in their zone; null: none),
 *   `reengaged_at` (the last re-engagement push it was sent), `vapid_key_id` (the key the browser
 *   subscribed with; null: Sino's default key).
 * - `sites`: `frequency_cap` (marketing pushes per subscription per rolling 24 h; null: the
 *   server's default), `send_window` (`HH:MM-HH:MM` local to each subscriber; null: the server's
 *   default), `time_zone` (the zone of subscribers that reported none; null: SINO_TIME_ZONE),
 *   `vapid_key_id` (the key its subscriptions are made and signed with; null: Sino's default).
 * - `notifications`: `exempt` (an admin's override of caps, windows and sleeping: breaking news),
 *   `reengagement` (may reach sleeping subscribers, at most once per sleeping period), and the
 *   counters `limited` (over their cap), `asleep` (skipped as sleeping), `waiting` (held for their
 *   window, now) and `expired` (their TTL ran out while waiting: dropped, never sent late).
 * - `vapid_keys`: key pairs besides the default one (generated for a site or imported).
 */
export const trustAndKeys: SinoMigration = {
  async up(db, dialect) {
    for (const column of ["last_shown_at", "last_visit_at", "reengaged_at", "vapid_key_id"]) {
      await db.schema.alterTable("subscriptions").addColumn(column, "bigint").execute();
    }
    await db.schema.alterTable("subscriptions").addColumn("quiet_hours", "text").execute();
    await db.schema.alterTable("sites").addColumn("frequency_cap", "integer").execute();
    await db.schema.alterTable("sites").addColumn("send_window", "text").execute();
    await db.schema.alterTable("sites").addColumn("time_zone", "text").execute();
    await db.schema.alterTable("sites").addColumn("vapid_key_id", "bigint").execute();
    for (const column of ["exempt", "reengagement", "limited", "asleep", "waiting", "expired"]) {
      await db.schema.alterTable("notifications").addColumn(column, "integer", (col) => col.notNull().defaultTo(0)).execute();
    }
    await db.schema
      .createTable("vapid_keys")
      .$call(serialId(dialect))
      .addColumn("public_key", "text", (col) => col.notNull().unique())
      .addColumn("private_key", "text", (col) => col.notNull())
      .addColumn("source", "text", (col) => col.notNull())
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("vapid_keys").execute();
    for (const column of ["expired", "waiting", "asleep", "limited", "reengagement", "exempt"]) {
      await db.schema.alterTable("notifications").dropColumn(column).execute();
    }
    for (const column of ["vapid_key_id", "time_zone", "send_window", "frequency_cap"]) await db.schema.alterTable("sites").dropColumn(column).execute();
    for (const column of ["quiet_hours", "vapid_key_id", "reengaged_at", "last_visit_at", "last_shown_at"]) {
      await db.schema.alterTable("subscriptions").dropColumn(column).execute();
    }
  },
};
