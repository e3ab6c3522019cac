import SqliteDatabase from "better-sqlite3";
import { sql } from "kysely";
import type { ErrorCode } from "../../shared/errors.js";
import type { Database } from "../../store/database.js";
import { MIGRATIONS } from "../../store/migrations/index.js";
import type { Liveness, LivenessStatus } from "./liveness.js";

/** What `/readyz` found, before it is put into words. */
export interface ReadinessReport {
  readonly ready: boolean;
  readonly database: "ok" | "unavailable";
  readonly migrations: "ok" | "unavailable" | "unknown";
  readonly loops: LivenessStatus;
  /** The first failed check's code; undefined when ready. */
  readonly code: ErrorCode | undefined;
  /** The database's own error, for the log (never in the answer: it may name hosts). */
  readonly cause: string | undefined;
}

export interface ReadinessDeps {
  readonly database: Pick<Database, "db" | "dialect">;
  /**
   * SQLite: the database file. The probe opens it afresh (read-only, no busy wait) rather than
   * asking the server's own connection, which keeps working on a file that was deleted, moved or
   * lost its volume — writing into an inode nobody will open again. PostgreSQL: undefined.
   */
  readonly sqliteFile?: string | undefined;
  readonly liveness: Pick<Liveness, "status">;
  readonly clock?: () => number;
  /** The longest a database check may take before it counts as unavailable (default 5 s). */
  readonly timeoutMs?: number;
}

export type ReadinessCheck = () => Promise<ReadinessReport>;

const MIGRATION_TABLE = "kysely_migration";

export function createReadinessCheck(deps: ReadinessDeps): ReadinessCheck {
  const clock = deps.clock ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? 5_000;
  const expected = MIGRATIONS.map(([name]) => name);

  async function appliedMigrations(): Promise<readonly string[]> {
    if (deps.sqliteFile !== undefined) return sqliteAppliedMigrations(deps.sqliteFile);
    const result = await withTimeout(sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(deps.database.db), timeoutMs);
    return result.rows.map((row) => row.name);
  }

  return async () => {
    let database: ReadinessReport["database"] = "ok";
    let migrations: ReadinessReport["migrations"] = "ok";
    let cause: string | undefined;
    // One query answers both: the database is there, and it has every migration this code has.
    try {
      const applied = new Set(await appliedMigrations());
      if (!expected.every((name) => applied.has(name))) migrations = "unavailable";
    } catch (error) {
      database = "unavailable";
      migrations = "unknown";
      cause = error instanceof Error ? error.message : String(error);
    }
    const loops = deps.liveness.status(clock());
    const code: ErrorCode | undefined =
      database !== "ok" ? "database_unavailable" : migrations !== "ok" ? "migrations_pending" : !loops.alive ? "background_task_stalled" : undefined;
    return { ready: code === undefined, database, migrations, loops, code, cause };
  };
}

/**
 * A fresh read-only connection that never waits for a lock: it fails at once if the file is gone,
 * unreadable, not a database, or held by an exclusive lock — each a reason Sino cannot work on it.
 */
function sqliteAppliedMigrations(file: string): readonly string[] {
  const probe = new SqliteDatabase(file, { readonly: true, fileMustExist: true, timeout: 0 });
  try {
    return probe.prepare<[], { name: string }>(`select name from ${MIGRATION_TABLE}`).all().map((row) => row.name);
  } finally {
    probe.close();
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the database within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
