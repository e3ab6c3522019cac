import type { SinoMigration } from "./migration.js";

/**
 * The organisation's identity (issue 23): one row (id 1) with the name, the accent colour and the
 * logo an admin set. The logo is small (≤ 256 KB) and read rarely (its answer is cached by ETag),
 * so it lives here as base64 text, the same on both databases, rather than in a file beside one
 * server that the other processes could not see.
 */
export const identity: SinoMigration = {
  async up(db) {
    await db.schema
      .createTable("organisation")
      .addColumn("id", "integer", (col) => col.primaryKey())
      .addColumn("name", "text")
      .addColumn("accent_color", "text")
      .addColumn("logo", "text")
      .addColumn("logo_type", "text")
      .addColumn("logo_width", "integer")
      .addColumn("logo_height", "integer")
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("organisation").execute();
  },
};
