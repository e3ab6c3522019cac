import type { Kysely } from "kysely";
import type { Dialect } from "../database.js";

/**
 * One migration, run on SQLite and PostgreSQL alike. It receives the dialect for the few column
 * types that have no common spelling (an auto-increment 64-bit key), and nothing else differs.
 * Migrations never import the current `Schema`: they describe the database as it was then.
 */
export interface SinoMigration {
  up(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
  down?(db: Kysely<unknown>, dialect: Dialect): Promise<void>;
}
