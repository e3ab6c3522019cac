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
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`PostgreSQL is not reachable at ${url} (${reason}). ${POSTGRES_HELP}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
