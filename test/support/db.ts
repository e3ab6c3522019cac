import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { createDatabase, type Database, type Dialect } from "../../src/store/database.js";
import { migrateToLatest } from "../../src/store/migrate.js";
import { testDatabaseUrl } from "./postgres.js";

/** Every storage suite runs once per dialect: `for (const dialect of DIALECTS) describe(...)`. */
export const DIALECTS = ["sqlite", "postgres"] as const satisfies readonly Dialect[];

/** Where a test database lives, so a second process (a second server) can open the same one. */
export interface TestDatabaseLocation {
  readonly dialect: Dialect;
  /** A SQLite file path, or the PostgreSQL URL. */
  readonly url: string;
  /** PostgreSQL: the schema made for this test. */
  readonly schema: string | undefined;
}

export interface TestDatabase extends Database {
  readonly location: TestDatabaseLocation;
  /** Closes the connection and drops what was created (the temp file or the schema). */
  cleanup(): Promise<void>;
}

/** An empty location (no tables yet): for tests of migrations and of start-up itself. */
export async function createTestDatabaseLocation(dialect: Dialect): Promise<{
  location: TestDatabaseLocation;
  drop(): Promise<void>;
}> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "sino-test-"));
    return {
      location: { dialect, url: join(dir, "sino.db"), schema: undefined },
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = testDatabaseUrl();
  const schema = `sino_t_${randomBytes(6).toString("hex")}`;
  await withAdminClient(url, (client) => client.query(`create schema ${schema}`));
  return {
    location: { dialect, url, schema },
    drop: () => withAdminClient(url, (client) => client.query(`drop schema if exists ${schema} cascade`)),
  };
}

/** Opens a database at `location` (each call its own connection/pool). */
export function openTestDatabase(location: TestDatabaseLocation): Database {
  return createDatabase({
    url: location.url,
    ...(location.schema === undefined ? {} : { schema: location.schema, poolSize: 5 }),
  });
}

/** A fresh, migrated database: a temp SQLite file, or a new PostgreSQL schema `sino_t_<random>`. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const { location, drop } = await createTestDatabaseLocation(dialect);
  const database = openTestDatabase(location);
  try {
    await migrateRacingOtherRuns(database);
  } catch (error) {
    await database.destroy();
    await drop();
    throw error;
  }
  let cleaned = false;
  return {
    ...database,
    location,
    async cleanup() {
      if (cleaned) return;
      cleaned = true;
      await database.destroy();
      await drop();
    },
  };
}

async function withAdminClient(url: string, work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Kysely's migrator looks for its table by introspecting every schema of the database
 * (`has_schema_privilege(nspname, 'USAGE')` over pg_namespace). When another test file, or another
 * test run on the same server, drops its own schema between that scan and the function call,
 * PostgreSQL raises 3F000 'schema "sino_t_…" does not exist' for the schema that just went away.
 * The migrations run in one transaction, so nothing was applied: trying again is safe.
 */
async function migrateRacingOtherRuns(database: Database): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await migrateToLatest(database);
      return;
    } catch (error) {
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      if (attempt >= 5 || cause?.code !== "3F000") throw error;
    }
  }
}
