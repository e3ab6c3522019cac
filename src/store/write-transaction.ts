import { sql, type Kysely } from "kysely";
import type { Database } from "./database.js";
import type { Schema } from "./schema.js";

/**
 * Runs `work` in a transaction that will write. On SQLite it starts with `BEGIN IMMEDIATE`, taking
 * the write lock up front: a plain (deferred) BEGIN that reads first and writes later can deadlock
 * with another connection doing the same, and SQLite then fails one of them at once with
 * SQLITE_BUSY instead of waiting (busy_timeout does not apply to a lock upgrade). PostgreSQL uses
 * an ordinary READ COMMITTED transaction.
 */
export async function writeTransaction<T>(database: Pick<Database, "db" | "dialect">, work: (trx: Kysely<Schema>) => Promise<T>): Promise<T> {
  if (database.dialect === "postgres") return database.db.transaction().execute(work);
  return database.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let result: T;
    try {
      result = await work(connection);
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
    await sql`commit`.execute(connection);
    return result;
  });
}
