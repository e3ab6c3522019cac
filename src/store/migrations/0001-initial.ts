import { serialId, type SinoMigration } from "./migration.js";

/** Subscriptions (the browsers that accept pushes) and the settings table for the VAPID keys. */
export const initial: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("subscriptions")
      .$call(serialId(dialect))
      .addColumn("endpoint", "text", (col) => col.notNull().unique())
      .addColumn("p256dh", "text", (col) => col.notNull())
      .addColumn("auth", "text", (col) => col.notNull())
      .addColumn("user_agent", "text")
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .addColumn("last_seen_at", "bigint", (col) => col.notNull())
      .execute();

    await db.schema
      .createTable("settings")
      .addColumn("key", "text", (col) => col.primaryKey())
      .addColumn("value", "text", (col) => col.notNull())
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("settings").execute();
    await db.schema.dropTable("subscriptions").execute();
  },
};
