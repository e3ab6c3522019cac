import { sql } from "kysely";
import type { SinoMigration } from "./migration.js";

/**
 * What an operator needs to read a send's state, and to keep a send off the public Avisos page.
 *
 * - `notifications.status` gains `no_recipients`: a send that had nobody to go to (zero targets
 *   when it went out) is no longer a green `completed`. Existing ones are moved over.
 * - `notifications.notice`: `public` (on Avisos, the default), `hidden` (kept off it; can be
 *   shown again) or `removed` (taken off for good). `notice_changed_at` is when it last left the
 *   page, so the notices' live stream can tell open pages to drop it (indexed for that poll; it
 *   is null on almost every row).
 * - `notification_retry_causes`: why pushes of a send are being retried, one row per push service
 *   host, reason and HTTP status (0: no answer), written once per retry batch and host, never
 *   once per push. `next_attempt_at` is that cause's soonest retry of its last batch.
 */
export const sendStates: SinoMigration = {
  async up(db) {
    await db.schema.alterTable("notifications").addColumn("notice", "text", (col) => col.notNull().defaultTo("public")).execute();
    await db.schema.alterTable("notifications").addColumn("notice_changed_at", "bigint").execute();
    await db.schema.createIndex("notifications_notice_changed").on("notifications").column("notice_changed_at").execute();
    await sql`update notifications set status = 'no_recipients' where status = 'completed' and queued = 0`.execute(db);

    await db.schema
      .createTable("notification_retry_causes")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      /** The push service's host (`fcm.googleapis.com`): never the endpoint, a browser's capability URL. */
      .addColumn("host", "text", (col) => col.notNull())
      /** The classifier's retry reason: `rate_limited`, `unavailable`, `timeout`, `refused`… */
      .addColumn("reason", "text", (col) => col.notNull())
      /** The HTTP status answered; 0 when no answer came (timeout, refused connection…). */
      .addColumn("status", "integer", (col) => col.notNull())
      /** Retries scheduled for this cause over the send's life. */
      .addColumn("pushes", "bigint", (col) => col.notNull())
      .addColumn("first_at", "bigint", (col) => col.notNull())
      .addColumn("last_at", "bigint", (col) => col.notNull())
      .addColumn("next_attempt_at", "bigint", (col) => col.notNull())
      /** The start of the push service's answer (at most 200 characters), when it gave one. */
      .addColumn("detail", "text")
      .addPrimaryKeyConstraint("notification_retry_causes_pk", ["notification_id", "host", "reason", "status"])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("notification_retry_causes").execute();
    await sql`update notifications set status = 'completed' where status = 'no_recipients'`.execute(db);
    await db.schema.dropIndex("notifications_notice_changed").execute();
    await db.schema.alterTable("notifications").dropColumn("notice_changed_at").execute();
    await db.schema.alterTable("notifications").dropColumn("notice").execute();
  },
};
