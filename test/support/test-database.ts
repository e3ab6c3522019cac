import { afterEach, beforeEach } from "vitest";
import type { Dialect } from "../../src/store/database.js";
import { createTestDatabase, createTestDatabaseLocation, type TestDatabase, type TestDatabaseLocation } from "./db.js";

/**
 * Gives each test of the enclosing `describe` a fresh, migrated database on `dialect` and drops it
 * after the test. `ready` receives it before the test runs, to keep it and build what the tests
 * use (repositories). Kept apart from `db.ts`, which benchmarks import outside vitest.
 */
export function useTestDatabase(dialect: Dialect, ready: (database: TestDatabase) => unknown): void {
  let database: TestDatabase | undefined;
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
    await ready(database);
  });
  afterEach(async () => {
    await database?.cleanup();
    database = undefined;
  });
}

/** The same with an empty location (no tables yet): for tests of migrations and of start-up itself. */
export function useTestDatabaseLocation(dialect: Dialect, ready: (location: TestDatabaseLocation) => unknown): void {
  let drop: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const created = await createTestDatabaseLocation(dialect);
    drop = created.drop;
    await ready(created.location);
  });
  afterEach(async () => {
    await drop?.();
    drop = undefined;
  });
}
