import { serialId, type SinoMigration } from "./migration.js";

/**
 * Channels a subscriber chooses, which channels a send went to, what the service worker
 * reported about each notification, a log of removals (so "removed per day" is real), and the
 * hygiene warning mark on subscriptions.
 */
export const channels: SinoMigration = {
  async up(db, dialect) {

    await db.schema
      .createTable("channels")
      .$call(serialId(dialect))
      // Immutable: it names the channel in URLs (`/p/<slug>`) and in subscribers' choices.
      .addColumn("slug", "text", (col) => col.notNull().unique())
      .addColumn("name", "text", (col) => col.notNull())
      .addColumn("description", "text")
      .addColumn("is_default", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("archived", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .execute();

    await db.schema
      .createTable("subscription_channels")
      .addColumn("subscription_id", "bigint", (col) => col.notNull().references("subscriptions.id").onDelete("cascade"))
      .addColumn("channel_id", "bigint", (col) => col.notNull().references("channels.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("subscription_channels_pk", ["subscription_id", "channel_id"])
      .execute();
    // The range query's EXISTS looks a subscription up by (subscription_id, channel_id): the
    // primary key. Counting a channel's subscribers goes the other way.
    await db.schema.createIndex("subscription_channels_channel").on("subscription_channels").column("channel_id").execute();

    // Which channels a send went to (none: everyone). The range query joins it, and Avisos lists it.
    await db.schema
      .createTable("notification_channels")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      .addColumn("channel_id", "bigint", (col) => col.notNull().references("channels.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("notification_channels_pk", ["notification_id", "channel_id"])
      .execute();
    await db.schema.createIndex("notification_channels_channel").on("notification_channels").column("channel_id").execute();

    await db.schema
      .createTable("notification_events")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      // No foreign key: a subscription removed later must not erase what it reported.
      .addColumn("subscription_id", "bigint", (col) => col.notNull())
      .addColumn("type", "text", (col) => col.notNull())
      .addColumn("created_at", "bigint", (col) => col.notNull())
      // Once per (notification, subscription, type): a repeated report is ignored.
      .addPrimaryKeyConstraint("notification_events_pk", ["notification_id", "subscription_id", "type"])
      .execute();
    await db.schema.createIndex("notification_events_created").on("notification_events").column("created_at").execute();

    await db.schema
      .createTable("subscription_removals")
      .$call(serialId(dialect))
      .addColumn("removed_at", "bigint", (col) => col.notNull())
      // unsubscribed | gone | expired | operator
      .addColumn("reason", "text", (col) => col.notNull())
      // With the creation time, the subscriber count on any past day is exact: the subscriptions
      // created by then that still exist, plus those removed after it.
      .addColumn("subscription_created_at", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("subscription_removals_at").on("subscription_removals").column("removed_at").execute();

    // Hygiene: when the one expiry warning was sent (null: not yet, or seen again since).
    await db.schema.alterTable("subscriptions").addColumn("warned_at", "bigint").execute();
    await db.schema.createIndex("subscriptions_last_seen").on("subscriptions").column("last_seen_at").execute();
    await db.schema.createIndex("notifications_created").on("notifications").column("created_at").execute();
  },

  async down(db) {
    await db.schema.dropIndex("notifications_created").execute();
    await db.schema.dropIndex("subscriptions_last_seen").execute();
    await db.schema.alterTable("subscriptions").dropColumn("warned_at").execute();
    await db.schema.dropTable("subscription_removals").execute();
    await db.schema.dropTable("notification_events").execute();
    await db.schema.dropTable("notification_channels").execute();
    await db.schema.dropTable("subscription_channels").execute();
    await db.schema.dropTable("channels").execute();
  },
};
