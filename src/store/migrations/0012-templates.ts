import { sql } from "kysely";
import { serialId, type SinoMigration } from "./migration.js";

/**
 * Saved templates (*modelos*): a send's content kept under a name, to start a new send from.
 *
 * - `templates`: title, body, link, icon, image, urgency, validity (TTL) and collapse key, as a
 *   send takes them, plus an optional audience as the API spells it (JSON: everyone, channels by
 *   slug, a saved segment by id, each optionally narrowed to sites); null: chosen when sending.
 *   Names are unique ignoring case (`lower(name)`, as segments).
 */
export const templates: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("templates")
      .$call(serialId(dialect))
      .addColumn("name", "text", (col) => col.notNull())
      .addColumn("title", "text", (col) => col.notNull())
      .addColumn("body", "text")
      .addColumn("url", "text")
      .addColumn("icon", "text")
      .addColumn("image", "text")
      .addColumn("urgency", "text", (col) => col.notNull().defaultTo("normal"))
      .addColumn("ttl_seconds", "bigint", (col) => col.notNull())
      .addColumn("collapse_key", "text")
      .addColumn("audience", "text")
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("templates_name").on("templates").expression(sql`lower(name)`).unique().execute();
  },

  async down(db) {
    await db.schema.dropTable("templates").execute();
  },
};
