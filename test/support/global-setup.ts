import pg from "pg";
import { POSTGRES_HELP, testDatabaseUrl } from "./postgres.js";

/**
 * Runs once before the whole test run: a missing prerequisite fails the run with a clear message,
 * never a silent skip. Every storage test runs on PostgreSQL as well as SQLite, so it must be up.
 */
export default async function setup(): Promise<void> {
  await checkPostgres();
}

async function checkPostgres(): Promise<void> {
  const url = testDatabaseUrl();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    // Dozens of test schemas exist at once, so catalog queries (Kysely's migrator introspecting
    // tables) grow big enough for PostgreSQL 15 to run them with parallel workers, which then
    // intermittently fail with 'schema "sino_t_…" does not exist' (3F000, where: parallel worker)
    // for a schema created a moment earlier. The test database never needs parallel plans.
    const { rows } = await client.query<{ db: string }>("select current_database() as db");
    const db = (rows[0]?.db ?? "test").replaceAll('"', '""');
    await client.query(`alter database "${db}" set max_parallel_workers_per_gather = 0`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL is not reachable at ${url} (${reason}). ${POSTGRES_HELP}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
