import type { SinoMigration } from "./migration.js";

/**
 * Issue 20, VAPID keys per site: `subscriptions.migrated_at`, when the bell silently replaced a
 * browser's push subscription made with another key (another sender's, or the site's previous
 * one) by one under the site's current key ("migrada"); null: made here as it is. Counted per site.
 * An index on `vapid_key_id` keeps "is this old key still used?" cheap when a site rotates.
 */
export const siteKeys: SinoMigration = {
  async up(db) {
    await db.schema.alterTable("subscriptions").addColumn("migrated_at", "bigint").execute();
    await db.schema.createIndex("subscriptions_vapid_key_id").on("subscriptions").column("vapid_key_id").execute();
  },

  async down(db) {
    await db.schema.dropIndex("subscriptions_vapid_key_id").execute();
    await db.schema.alterTable("subscriptions").dropColumn("migrated_at").execute();
  },
};
