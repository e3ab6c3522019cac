import { serialId, type SinoMigration } from "./migration.js";

/**
 * LGPD (issue 18): the consent record of each subscription and the log of erasures.
 *
 * - `consent_records`: one row per subscription that was given with consent shown by Sino's bell or
 *   soft prompt: when, on which site and page origin, the exact text shown and its catalogue
 *   version, the channels it started with. `subscription_id` is deliberately not a foreign key: the
 *   record outlives the subscription (`ended_at`) for SINO_CONSENT_RETENTION_DAYS, as proof (Art. 8).
 * - `consent_changes`: each later change of choice (channels, quiet hours, unsubscribe), in order.
 * - `data_erasures`: that an erasure happened (who asked: the subscriber or an operator; what it
 *   covered; how many rows went), never whose data it was.
 */
export const consent: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("consent_records")
      .addColumn("subscription_id", "bigint", (col) => col.primaryKey())
      .addColumn("site_id", "bigint")
      .addColumn("page_origin", "text")
      .addColumn("source", "text", (col) => col.notNull())
      .addColumn("text", "text", (col) => col.notNull())
      .addColumn("catalogue_version", "text", (col) => col.notNull())
      .addColumn("channels", "text", (col) => col.notNull())
      .addColumn("given_at", "bigint", (col) => col.notNull())
      .addColumn("ended_at", "bigint")
      .addColumn("end_reason", "text")
      .execute();
    await db.schema.createIndex("consent_records_ended_at").on("consent_records").column("ended_at").execute();
    await db.schema
      .createTable("consent_changes")
      .$call(serialId(dialect))
      .addColumn("subscription_id", "bigint", (col) => col.notNull())
      .addColumn("kind", "text", (col) => col.notNull())
      .addColumn("value", "text")
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("consent_changes_subscription").on("consent_changes").columns(["subscription_id", "id"]).execute();
    await db.schema
      .createTable("data_erasures")
      .$call(serialId(dialect))
      .addColumn("erased_at", "bigint", (col) => col.notNull())
      .addColumn("requested_by", "text", (col) => col.notNull())
      .addColumn("scope", "text", (col) => col.notNull())
      .addColumn("rows", "text", (col) => col.notNull())
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("data_erasures").execute();
    await db.schema.dropTable("consent_changes").execute();
    await db.schema.dropTable("consent_records").execute();
  },
};
