import { sql, type Kysely } from "kysely";
import { foldForSearch, notificationSearchText } from "../../shared/text/search-fold.js";
import type { SinoMigration } from "./migration.js";

/** Rows folded per UPDATE when filling the new search columns of existing rows (2 parameters each, well under both databases' limits). */
const BACKFILL_BATCH = 500;

/**
 * Operator accounts and accent-free search.
 *
 * - `users.must_change_password` (0 or 1): set when an admin (or `sino users reset-password`)
 *   gives someone a temporary password; until they choose a new one, their session can do nothing
 *   but change it (or sign out).
 * - `notifications.search_text`: title and body folded (lowercase, no accents: see
 *   `foldForSearch`), which the Histórico search compares with the folded words typed.
 * - `subscriptions.person_key`: the person id folded the same way, for the user-id searches of
 *   Assinantes and Pessoas.
 *
 * Both are written with the row from now on, and filled here for existing rows, in batches by id
 * so a large table is never read whole into memory. Neither gets an index: a LIKE '%word%' cannot
 * use a b-tree on either database, and a prefix range over `person_key` could only use one on
 * PostgreSQL under the "C" collation; the searches scan, as lower(title) and substr(person_id)
 * already did, next to the page's count(*) that scans anyway.
 */
export const accounts: SinoMigration = {
  async up(db) {
    await db.schema.alterTable("users").addColumn("must_change_password", "integer", (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.alterTable("notifications").addColumn("search_text", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("person_key", "text").execute();

    const typed = db as Kysely<BackfillSchema>;
    for (let after = 0; ; ) {
      const rows = await typed.selectFrom("notifications").select(["id", "title", "body"]).where("id", ">", after).orderBy("id").limit(BACKFILL_BATCH).execute();
      await setByIds(db, "notifications", "search_text", rows.map((row) => [Number(row.id), notificationSearchText(row.title, row.body)]));
      if (rows.length < BACKFILL_BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
    for (let after = 0; ; ) {
      const rows = await typed
        .selectFrom("subscriptions")
        .select(["id", "person_id"])
        .where("id", ">", after)
        .where("person_id", "is not", null)
        .orderBy("id")
        .limit(BACKFILL_BATCH)
        .execute();
      await setByIds(db, "subscriptions", "person_key", rows.map((row) => [Number(row.id), foldForSearch(row.person_id!)]));
      if (rows.length < BACKFILL_BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
  },
};

/**
 * One UPDATE for a whole batch (`set column = case id when … then … end where id in (…)`), the
 * same statement on both databases. bench/search-backfill.ts, 100,000 subscriptions and 10,000
 * sends on this 2-core machine under load: a row at a time (one round trip each) took 42.2 s on
 * PostgreSQL and 4.1 s on SQLite; batched, 6.1 to 11.3 s and 2.1 s.
 */
async function setByIds(db: Kysely<unknown>, table: string, column: string, values: ReadonlyArray<readonly [number, string]>): Promise<void> {
  if (values.length === 0) return;
  const cases = sql.join(values.map(([id, value]) => sql`when ${id} then ${value}`), sql` `);
  const ids = sql.join(values.map(([id]) => sql`${id}`));
  await sql`update ${sql.table(table)} set ${sql.ref(column)} = case id ${cases} end where id in (${ids})`.execute(db);
}

/** The tables as this migration sees them (migrations never import the current `Schema`). */
interface BackfillSchema {
  notifications: { id: number; title: string; body: string | null; search_text: string | null };
  subscriptions: { id: number; person_id: string | null; person_key: string | null };
}
