import { randomBytes } from "node:crypto";
import type { Generated, Kysely } from "kysely";
import { serialId, type SinoMigration } from "./migration.js";

/** The built-in site (Sino's own origin): the first row of `sites`. */
export const BUILT_IN_SITE_ID = 1;

/**
 * Sites (the origins allowed to collect subscribers), each subscription's site, the sites
 * a send was narrowed to, and the site of each logged removal (so the charts filter by site).
 * Sino's own origin is a built-in row with no stored origin: it is whatever SINO_PUBLIC_URL says
 * at run time, so changing that variable never strands the subscriptions made on it.
 */
export const sites: SinoMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable("sites")
      .$call(serialId(dialect))
      // Null only on the built-in row (Sino's own origin); unique among the others.
      .addColumn("origin", "text", (col) => col.unique())
      .addColumn("key", "text", (col) => col.notNull().unique())
      .addColumn("built_in", "integer", (col) => col.notNull().defaultTo(0))
      .addColumn("created_at", "bigint", (col) => col.notNull())
      .execute();
    // Typed here (migrations never import the current Schema): the table as this migration made it.
    const own = await (db as unknown as Kysely<{ sites: { id: Generated<number>; origin: string | null; key: string; built_in: number; created_at: number } }>)
      .insertInto("sites")
      .values({ origin: null, key: randomBytes(9).toString("base64url"), built_in: 1, created_at: Date.now() })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The first row of a new table is id 1 on both databases; the column default below relies on it.
    if (Number(own.id) !== BUILT_IN_SITE_ID) throw new Error(`the built-in site got id ${String(own.id)}, expected ${BUILT_IN_SITE_ID}`);

    // Every existing subscription was made on Sino's own page, and a row inserted without a site
    // (a script, an older process during a rolling upgrade) belongs there too. No foreign key:
    // SQLite only adds a REFERENCES column whose default is NULL, and the sites repository
    // removes a site's subscriptions itself (logging each removal) before the site.
    await db.schema
      .alterTable("subscriptions")
      .addColumn("site_id", "bigint", (col) => col.notNull().defaultTo(BUILT_IN_SITE_ID))
      .execute();
    // The per-site cap counts a site's subscriptions; the filters and the range query use it too.
    await db.schema.createIndex("subscriptions_site").on("subscriptions").column("site_id").execute();

    // A removal keeps its site (no foreign key: the log outlives a deleted site) so "removed per
    // day" can be filtered by site. Older rows have none: they count only in the unfiltered charts.
    await db.schema.alterTable("subscription_removals").addColumn("site_id", "bigint").execute();

    // The sites a send was narrowed to (none: every site). No foreign key to sites on purpose: a
    // scheduled send narrowed to a site deleted since must reach nobody, not everyone.
    await db.schema
      .createTable("notification_sites")
      .addColumn("notification_id", "bigint", (col) => col.notNull().references("notifications.id").onDelete("cascade"))
      .addColumn("site_id", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("notification_sites_pk", ["notification_id", "site_id"])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("notification_sites").execute();
    await db.schema.alterTable("subscription_removals").dropColumn("site_id").execute();
    await db.schema.dropIndex("subscriptions_site").execute();
    await db.schema.alterTable("subscriptions").dropColumn("site_id").execute();
    await db.schema.dropTable("sites").execute();
  },
};
