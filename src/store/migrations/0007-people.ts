import { serialId, type SinoMigration } from "./migration.js";

/**
 * People (the host app's own users, named by an opaque id the site gives), sends to them, what
 * became of each push, and outbound webhooks.
 *
 * - `subscriptions.person_id`: the person a browser was identified as (null: anonymous).
 * - `sites.identity_*`: the per-site secret that signs person ids (HMAC-SHA256), the previous one
 *   during its grace period, and whether the site requires signatures at all.
 * - `notifications.category` (`marketing` | `transactional`), `collapse_key`, `personalised`.
 * - `notification_people`: the people a `users` send targets, each with its own placeholder data.
 * - `notification_recipients`: one row per (send, subscription) once its first attempt settles.
 * - `webhooks` and `webhook_messages`: endpoints an admin registered and the durable outbox of
 *   signed deliveries to them (Standard Webhooks).
 */
export const people: SinoMigration = {
  async up(db, dialect) {

    await db.schema.alterTable("subscriptions").addColumn("person_id", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("identified_at", "bigint").execute();
    // A person's devices (a `users` send's range query and the person page); the id as tiebreak
    // lets the range query walk one person's rows in id order from the index alone.
    await db.schema.createIndex("subscriptions_person").on("subscriptions").columns(["person_id", "id"]).execute();

    // Null until an admin generates one: a site that requires signatures then refuses every
    // identification, which is safer than accepting unsigned ids.
    await db.schema.alterTable("sites").addColumn("identity_secret", "text").execute();
    await db.schema.alterTable("sites").addColumn("identity_previous_secret", "text").execute();
    await db.schema.alterTable("sites").addColumn("identity_previous_until", "bigint").execute();
    await db.schema.alterTable("sites").addColumn("identity_rotated_at", "bigint").execute();
    await db.schema.alterTable("sites").addColumn("identity_verification", "integer", (col) => col.notNull().defaultTo(1)).execute();

    await db.schema.alterTable("notifications").addColumn("category", "text", (col) => col.notNull().defaultTo("marketing")).execute();
    await db.schema.alterTable("notifications").addColumn("collapse_key", "text").execute();
    await db.schema.alterTable("notifications").addColumn("personalised", "integer", (col) => col.notNull().defaultTo(0)).execute();

    await db.schema
      .createTable("notification_people")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      .addColumn("person_id", "text", (col) => col.notNull())
      /** JSON object of placeholder values, or null. */
      .addColumn("data", "text")
      .addPrimaryKeyConstraint("notification_people_pk", ["notification_id", "person_id"])
      .execute();

    await db.schema
      .createTable("notification_recipients")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      // No foreign key: the row outlives a removed subscription (its outcome may be "removed").
      .addColumn("subscription_id", "bigint", (col) => col.notNull())
      .addColumn("person_id", "text")
      .addColumn("site_id", "bigint")
      .addColumn("outcome", "text", (col) => col.notNull())
      .addColumn("reason", "text")
      .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(1))
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("notification_recipients_pk", ["notification_id", "subscription_id"])
      .execute();
    await db.schema.createIndex("notification_recipients_person").on("notification_recipients").columns(["person_id", "notification_id"]).execute();

    await db.schema
      .createTable("webhooks")
      .$call(serialId(dialect))
      .addColumn("url", "text", (col) => col.notNull())
      .addColumn("description", "text")
      /** JSON array of event types. */
      .addColumn("events", "text", (col) => col.notNull())
      /** `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
      .addColumn("secret", "text", (col) => col.notNull())
      .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(1))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .execute();

    await db.schema
      .createTable("webhook_messages")
      .$call(serialId(dialect))
      .addColumn("webhook_id", "bigint", (col) => col.notNull().references("webhooks.id").onDelete("cascade"))
      /** The `webhook-id` header: `msg_` + random, the same on every attempt (receivers deduplicate on it). */
      .addColumn("message_id", "text", (col) => col.notNull().unique())
      .addColumn("event_type", "text", (col) => col.notNull())
      /** The exact JSON body signed and sent. */
      .addColumn("payload", "text", (col) => col.notNull())
      /** `pending` | `delivered` | `failed` (gave up). */
      .addColumn("status", "text", (col) => col.notNull().defaultTo("pending"))
      .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("not_before", "bigint", (col) => col.notNull())
      .addColumn("last_status", "integer")
      .addColumn("last_error", "text")
      .addColumn("lease_owner", "text")
      .addColumn("lease_until", "bigint", (col) => col.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("delivered_at", "bigint")
      .execute();
    await db.schema.createIndex("webhook_messages_due").on("webhook_messages").columns(["status", "not_before"]).execute();
    await db.schema.createIndex("webhook_messages_webhook").on("webhook_messages").columns(["webhook_id", "id"]).execute();
  },

  async down(db) {
    await db.schema.dropTable("webhook_messages").execute();
    await db.schema.dropTable("webhooks").execute();
    await db.schema.dropTable("notification_recipients").execute();
    await db.schema.dropTable("notification_people").execute();
    for (const column of ["personalised", "collapse_key", "category"]) await db.schema.alterTable("notifications").dropColumn(column).execute();
    for (const column of ["identity_verification", "identity_rotated_at", "identity_previous_until", "identity_previous_secret", "identity_secret"]) {
      await db.schema.alterTable("sites").dropColumn(column).execute();
    }
    await db.schema.dropIndex("subscriptions_person").execute();
    await db.schema.alterTable("subscriptions").dropColumn("identified_at").execute();
    await db.schema.alterTable("subscriptions").dropColumn("person_id").execute();
  },
};
