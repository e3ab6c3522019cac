import { serialId, type SinoMigration } from "./migration.js";

/**
 * Sends over the API: a send may wait for its time (`send_at`, status `scheduled`, no jobs yet:
 * the snapshot of subscriptions is taken when it goes out), and a create request may carry an
 * `Idempotency-Key`, remembered per caller for 24 hours. The unique (scope, key) pair is what
 * makes a retried or doubled request create one send, even across processes.
 */
export const sends: SinoMigration = {
  async up(db, dialect) {
    await db.schema.alterTable("notifications").addColumn("send_at", "bigint").execute();
    // The scheduler's "what is due" query, and the history list's status filter.
    await db.schema.createIndex("notifications_status_send_at").on("notifications").columns(["status", "send_at"]).execute();

    await db.schema
      .createTable("idempotency_keys")
      .$call(serialId(dialect))
      // Whose key it is: `user:<id>` or `token:<id>`; two callers may use the same key.
      .addColumn("scope", "text", (col) => col.notNull())
      .addColumn("key", "text", (col) => col.notNull())
      // SHA-256 of the request (method, path, canonical body): same key + other body is refused.
      .addColumn("request_hash", "text", (col) => col.notNull())
      .addColumn("notification_id", "bigint", (col) => col.references("notifications.id").onDelete("cascade"))
      // The answer given the first time, replayed as is.
      .addColumn("status_code", "integer", (col) => col.notNull())
      .addColumn("response", "text", (col) => col.notNull())
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("expires_at", "bigint", (col) => col.notNull())
      .addUniqueConstraint("idempotency_keys_scope_key", ["scope", "key"])
      .execute();
    await db.schema.createIndex("idempotency_keys_expires").on("idempotency_keys").column("expires_at").execute();
  },

  async down(db) {
    await db.schema.dropTable("idempotency_keys").execute();
    await db.schema.dropIndex("notifications_status_send_at").execute();
    await db.schema.alterTable("notifications").dropColumn("send_at").execute();
  },
};
