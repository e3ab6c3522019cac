import { sql } from "kysely";
import { serialId, type SinoMigration } from "./migration.js";

/**
 * Tags and segments: attributes of people and subscriptions, and saved boolean expressions over
 * them used as a send's audience.
 *
 * - `person_tags`: trusted tags, set by the host's server (API, or signed with the person's
 *   identity). One value per key; `value` null is a key-only tag (`tem vip`). `num_value` holds the
 *   value as a number when it is one, `time_value` as epoch ms when it is an ISO date, so `idade >= 18`
 *   and `nascimento < 2010-01-01` compare as such. Keyed by person id: a person may be tagged before
 *   any of their browsers subscribes.
 * - `subscription_tags`: visitor tags, set by the page (embed, `useSino`), on one browser.
 * - `subscriptions.time_zone / browser / platform / last_clicked_at`: what segments test besides
 *   tags (IANA zone the bell reports; browser and platform derived from the User-Agent with bowser,
 *   lowercase; the last click on any of Sino's notifications).
 * - `sites.visitor_tags`: whether pages of the site may set visitor tags (default yes).
 * - `segments`, `segment_sizes` (one row per segment and day), `notifications.segment_id` (the
 *   saved segment a send used, for the segment's page).
 * - `notification_targets`: a segment send's subscriptions, taken when it starts.
 */
export const segments: SinoMigration = {
  async up(db, dialect) {
    const real = dialect === "postgres" ? "double precision" : "real";

    for (const [table, owner, ownerType] of [
      ["person_tags", "person_id", "text"],
      ["subscription_tags", "subscription_id", "bigint"],
    ] as const) {
      await db.schema
        .createTable(table)
        .addColumn(owner, ownerType, (col) => (owner === "subscription_id" ? col.notNull().references("subscriptions.id").onDelete("cascade") : col.notNull()))
        .addColumn("key", "text", (col) => col.notNull())
        .addColumn("value", "text")
        .addColumn("num_value", real)
        .addColumn("time_value", "bigint")
        .addColumn("updated_at", "bigint", (col) => col.notNull())
        .addPrimaryKeyConstraint(`${table}_pk`, [owner, "key"])
        // SQLite: the rows live in the primary key's b-tree, so a segment's per-subscription probe
        // (owner, key) reads the value in one search instead of an index search plus a rowid
        // lookup: a count over 1,000,000 subscriptions with 4 tag conditions went from 1.26 to
        // 0.79 s of CPU.
        .$call((builder) => (dialect === "sqlite" ? builder.modifyEnd(sql`without rowid`) : builder))
        .execute();
      // A condition's set: equality and `in` on (key, value), order comparisons on the typed columns.
      await db.schema.createIndex(`${table}_value`).on(table).columns(["key", "value", owner]).execute();
      await db.schema.createIndex(`${table}_number`).on(table).columns(["key", "num_value", owner]).execute();
      await db.schema.createIndex(`${table}_time`).on(table).columns(["key", "time_value", owner]).execute();
    }

    await db.schema.alterTable("subscriptions").addColumn("time_zone", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("browser", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("platform", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("last_clicked_at", "bigint").execute();

    await db.schema.alterTable("sites").addColumn("visitor_tags", "integer", (col) => col.notNull().defaultTo(1)).execute();

    await db.schema
      .createTable("segments")
      .$call(serialId(dialect))
      .addColumn("name", "text", (col) => col.notNull())
      .addColumn("description", "text")
      /** The expression as canonical JSON tree (src/shared/segments). */
      .addColumn("expression", "text", (col) => col.notNull())
      /** `trusted` | `visitor` | `all`: which tags its conditions read. */
      .addColumn("tag_kinds", "text", (col) => col.notNull().defaultTo("trusted"))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .addColumn("updated_at", "bigint", (col) => col.notNull())
      .execute();
    await db.schema.createIndex("segments_name").on("segments").expression(sql`lower(name)`).unique().execute();

    await db.schema
      .createTable("segment_sizes")
      .addColumn("segment_id", "bigint", (col) => col.notNull().references("segments.id").onDelete("cascade"))
      /** UTC day, `YYYY-MM-DD`. */
      .addColumn("day", "text", (col) => col.notNull())
      .addColumn("subscriptions", "bigint", (col) => col.notNull())
      .addColumn("people", "bigint", (col) => col.notNull())
      .addColumn("measured_at", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("segment_sizes_pk", ["segment_id", "day"])
      .execute();

    // No foreign key: a send keeps its record (the expression is in its audience JSON) after the
    // segment is deleted; the segment's page lists sends through this index.
    await db.schema.alterTable("notifications").addColumn("segment_id", "bigint").execute();
    await db.schema.createIndex("notifications_segment").on("notifications").columns(["segment_id", "id"]).execute();

    // A segment send's audience, taken once when it starts: the workers walk these rows by primary
    // key range instead of testing the expression on every subscription of their range (a tag
    // changed mid-send then no longer changes who gets it). No foreign key to subscriptions: one
    // removed mid-send simply has no row to join. The hygiene task deletes a finished send's rows.
    await db.schema
      .createTable("notification_targets")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      .addColumn("subscription_id", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("notification_targets_pk", ["notification_id", "subscription_id"])
      // SQLite: the rows are the primary key's b-tree (as person_tags), no rowid table beside it.
      .$call((builder) => (dialect === "sqlite" ? builder.modifyEnd(sql`without rowid`) : builder))
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("notification_targets").execute();
    await db.schema.dropIndex("notifications_segment").execute();
    await db.schema.alterTable("notifications").dropColumn("segment_id").execute();
    await db.schema.dropTable("segment_sizes").execute();
    await db.schema.dropTable("segments").execute();
    await db.schema.alterTable("sites").dropColumn("visitor_tags").execute();
    for (const column of ["last_clicked_at", "platform", "browser", "time_zone"]) await db.schema.alterTable("subscriptions").dropColumn(column).execute();
    await db.schema.dropTable("subscription_tags").execute();
    await db.schema.dropTable("person_tags").execute();
  },
};
