import { serialId, type SinoMigration } from "./migration.js";

/**
 * Issue 20, "the site's feed becomes push".
 *
 * - `feeds`: an RSS or Atom URL an admin registered, who it goes to (`channel_id`, null: everyone)
 *   and how (`mode`: `auto` sends each new item, `draft` waits for an operator). The poll state
 *   lives here too: the validators of the last answer (`etag`, `last_modified`) for a conditional
 *   GET, when the next poll is due, the lease of the worker polling it now (as delivery jobs do), and
 *   what the Painel shows per feed (polls, items found, errors, the last error and success).
 * - `feed_items`: every item a feed has shown, by its key (guid, else link), unique per feed. The
 *   row is written in the same transaction as the item's send, so an item is published at most
 *   once however many workers poll; the first poll stores the items already there as `seen`.
 */
export const feeds: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("feeds")
      .$call(serialId(dialect))
      .addColumn("url", "text", (col) => col.notNull())
      .addColumn("title", "text")
      // No foreign key: a deleted channel must not turn a feed into one for everyone (set null) nor
      // delete it silently (cascade); the poll records an error instead and sends nothing.
      .addColumn("channel_id", "bigint")
      .addColumn("mode", "text", (col) => col.notNull())
      .addColumn("interval_seconds", "integer", (col) => col.notNull())
      .addColumn("enabled", "integer", (col) => col.notNull().defaultTo(1))
      .addColumn("primed", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("etag", "text")
      .addColumn("last_modified", "text")
      .addColumn("next_poll_at", "bigint", (col) => col.notNull())
      .addColumn("lease_owner", "text")
      .addColumn("lease_until", "bigint", (col) => col.notNull().defaultTo(0))
      .addColumn("polls", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("items_found", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("errors", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("last_polled_at", "bigint")
      .addColumn("last_success_at", "bigint")
      .addColumn("last_error", "text")
      .addColumn("last_error_at", "bigint")
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("feeds_due").on("feeds").columns(["enabled", "next_poll_at"]).execute();
    await db.schema
      .createTable("feed_items")
      .$call(serialId(dialect))
      .addColumn("feed_id", "bigint", (col) => col.notNull().references("feeds.id").onDelete("cascade"))
      .addColumn("item_key", "text", (col) => col.notNull())
      .addColumn("title", "text", (col) => col.notNull())
      .addColumn("summary", "text")
      .addColumn("link", "text")
      .addColumn("image", "text")
      .addColumn("status", "text", (col) => col.notNull())
      .addColumn("reason", "text")
      .addColumn("notification_id", "bigint", (col) => col.references("notifications.id").onDelete("set null"))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("decided_at", "bigint")
      .addUniqueConstraint("feed_items_feed_key", ["feed_id", "item_key"])
      .execute();
    await db.schema.createIndex("feed_items_feed_status").on("feed_items").columns(["feed_id", "status", "id"]).execute();
  },

  async down(db) {
    await db.schema.dropTable("feed_items").execute();
    await db.schema.dropTable("feeds").execute();
  },
};
