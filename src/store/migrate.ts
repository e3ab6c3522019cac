import { Migrator, sql, type Kysely, type Migration, type MigrationProvider, type MigrationResultSet } from "kysely";
import type { MigrationResult } from "kysely";
import type { Database, Dialect } from "./database.js";
import { MIGRATIONS } from "./migrations/index.js";
import type { Schema } from "./schema.js";

export class MigrationError extends Error {
  readonly code = "migration_failed";
  constructor(
    message: string,
    readonly results: readonly MigrationResult[],
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "MigrationError";
  }
}

/**
 * Brings the database to the latest schema, all of it or nothing. Safe to run from several
 * processes at once: the first takes the lock, the others wait and then find nothing to do.
 * Returns the names of the migrations this call applied.
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const { error, results = [] } =
    database.dialect === "sqlite" ? await migrateSqlite(database) : await createMigrator(database, database.db).migrateToLatest();
  if (error !== undefined) {
    const failed = results.find((r) => r.status === "Error")?.migrationName ?? "(setup)";
    throw new MigrationError(`Migration ${failed} failed`, results, { cause: error });
  }
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Kysely's SQLite adapter takes no migration lock (it assumes one connection in one process) and
 * runs migrations outside a transaction. Two processes starting on the same file would then both
 * create the tables. So the whole run happens inside `BEGIN IMMEDIATE` on our one connection: it
 * takes SQLite's write lock up front (a second process waits for it, see busy_timeout) and a
 * failed migration rolls back entirely.
 */
async function migrateSqlite(database: Database): Promise<MigrationResultSet> {
  return database.db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    let outcome: MigrationResultSet;
    try {
      outcome = await createMigrator(database, connection).migrateToLatest();
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
    await sql.raw(outcome.error === undefined ? "commit" : "rollback").execute(connection);
    return outcome;
  });
}

function createMigrator(database: Database, db: Kysely<Schema>): Migrator {
  return new Migrator({
    db: db as unknown as Kysely<unknown>,
    provider: createMigrationProvider(database.dialect),
    // On PostgreSQL the migrator's table lookup scans every schema unless told which one is ours;
    // without this a second schema in the same database (tests) would see the first one's tables.
    ...(database.schema === undefined ? {} : { migrationTableSchema: database.schema }),
  });
}

function createMigrationProvider(dialect: Dialect): MigrationProvider {
  return {
    async getMigrations() {
      const entries = MIGRATIONS.map(([name, m]): [string, Migration] => [
        name,
        {
          up: (db) => m.up(db, dialect),
          ...(m.down === undefined ? {} : { down: (db: Kysely<unknown>) => m.down!(db, dialect) }),
        },
      ]);
      return Object.fromEntries(entries);
    },
  };
}
