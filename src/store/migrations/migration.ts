import type { CreateTableBuilder, Kysely } from "kysely";
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

/**
 * The auto-increment 64-bit key `id`, for `createTable(...).$call(serialId(dialect))`: bigserial on
 * PostgreSQL; on SQLite INTEGER PRIMARY KEY, the rowid, with AUTOINCREMENT so ids are never reused
 * after a delete and a delivery run streaming `id > last` never meets a recycled one. Migrations
 * that have run used it: changing it would make a new database differ from an upgraded one.
 */
export function serialId(dialect: Dialect) {
  return <TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) =>
    table.addColumn("id", dialect === "postgres" ? "bigserial" : "integer", (col) => (dialect === "postgres" ? col.primaryKey() : col.primaryKey().autoIncrement()));
}
