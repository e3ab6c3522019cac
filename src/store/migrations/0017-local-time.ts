import type { SinoMigration } from "./migration.js";

/**
 * Delivery in the subscriber's local time. A marketing push held for its window waits as a
 * `delivery_retries` row (`last_reason` = 'window', `not_before` = the opening in the subscriber's
 * zone), so waiting is as durable and as shared among workers as any retry.
 *
 * - `notifications.waiting_until`: the send's next opening while some of its targets wait (null:
 *   none waits), shown with its progress without counting its rows on every read.
 * - `delivery_retries_window`: finds a send's waiting rows and their earliest opening in one probe.
 */
export const localTime: SinoMigration = {
  async up(db) {
    await db.schema.alterTable("notifications").addColumn("waiting_until", "bigint").execute();
    await db.schema.createIndex("delivery_retries_window").on("delivery_retries").columns(["notification_id", "last_reason", "not_before"]).execute();
  },

  async down(db) {
    await db.schema.dropIndex("delivery_retries_window").execute();
    await db.schema.alterTable("notifications").dropColumn("waiting_until").execute();
  },
};
