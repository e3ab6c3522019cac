import type { Kysely } from "kysely";
import { foldForSearch, sendSearchText } from "../../shared/text/search-fold.js";
import type { SinoMigration } from "./migration.js";

/** Rows folded per statement round when filling the new search columns of existing rows. */
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
      for (const row of rows) {
        await typed.updateTable("notifications").set({ search_text: sendSearchText(row.title, row.body) }).where("id", "=", row.id).execute();
      }
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
      for (const row of rows) {
        await typed.updateTable("subscriptions").set({ person_key: foldForSearch(row.person_id!) }).where("id", "=", row.id).execute();
      }
      if (rows.length < BACKFILL_BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
  },
};

/** The tables as this migration sees them (migrations never import the current `Schema`). */
interface BackfillSchema {
  notifications: { id: number; title: string; body: string | null; search_text: string | null };
  subscriptions: { id: number; person_id: string | null; person_key: string | null };
}
