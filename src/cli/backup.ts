import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SqliteDatabase from "better-sqlite3";
import type { Config } from "../server/config.js";
import type { Translator } from "../server/i18n.js";
import { dialectOf, sqlitePath } from "../store/database.js";
import { MIGRATIONS } from "../store/migrations/index.js";
import type { CliIo } from "./main.js";

/** A refusal the command explains in one pt-BR line (exit code 1, no stack trace). */
export class BackupError extends Error {
  override readonly name = "BackupError";
}

/** A BackupError is the operator's to fix: one pt-BR line and exit code 1. Anything else is a bug: thrown. */
function reportBackupError(error: unknown, io: CliIo, t: Translator["t"]): 1 {
  if (!(error instanceof BackupError)) throw error;
  io.stderr(`${t("cli:failed", { message: error.message })}\n`);
  return 1;
}

/** Pages per backup step: all of them, so the copy is one read transaction (see `backupSqlite`). */
const ALL_PAGES = 0x7fffffff;

/**
 * `sino backup FILE`: a consistent copy of the SQLite database while Sino runs, through SQLite's
 * online backup API. The whole copy is one step — one read transaction — so it is a snapshot of
 * one moment: WAL lets Sino keep writing meanwhile (readers never block the writer), and nothing
 * Sino commits during the copy can leave it half-applied. It is written beside FILE and renamed
 * only once checked, so FILE is never a partial copy.
 */
export async function backupCommand(file: string, options: { force?: boolean }, config: Pick<Config, "databaseUrl">, io: CliIo, translator: Translator): Promise<number> {
  const { t } = translator;
  try {
    if (dialectOf(config.databaseUrl) === "postgres") throw new BackupError(t("cli:backup.postgres"));
    const source = resolve(sqlitePath(config.databaseUrl));
    const target = resolve(file);
    if (!existsSync(source)) throw new BackupError(t("cli:backup.noDatabase", { path: source }));
    if (target === source) throw new BackupError(t("cli:backup.sameFile"));
    if (existsSync(target) && options.force !== true) throw new BackupError(t("cli:backup.exists", { path: target }));
    const partial = `${target}.partial`;
    rmSync(partial, { force: true });
    const database = new SqliteDatabase(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
    try {
      await database.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      database.close();
    }
    checkSinoDatabase(partial, t);
    renameSync(partial, target);
    const size = (statSync(target).size / 1_048_576).toLocaleString("pt-BR", { maximumFractionDigits: 1 });
    io.stdout(`${t("cli:backup.done", { path: target, size })}\n`);
    return 0;
  } catch (error) {
    return reportBackupError(error, io, t);
  }
}

/**
 * `sino restore FILE`: puts a copy made by `sino backup` in place of the configured SQLite
 * database. It checks FILE is a sound Sino database this version can run (migrations it knows),
 * never replaces a database another process has open (a running Sino: stop it first), and replaces
 * an existing one only with `--force`. Missing migrations are applied when Sino starts.
 */
export async function restoreCommand(file: string, options: { force?: boolean }, config: Pick<Config, "databaseUrl">, io: CliIo, translator: Translator): Promise<number> {
  const { t } = translator;
  try {
    if (dialectOf(config.databaseUrl) === "postgres") throw new BackupError(t("cli:restore.postgres"));
    const backup = resolve(file);
    const target = resolve(sqlitePath(config.databaseUrl));
    if (!existsSync(backup)) throw new BackupError(t("cli:restore.noBackup", { path: backup }));
    if (backup === target) throw new BackupError(t("cli:backup.sameFile"));
    checkSinoDatabase(backup, t);
    if (existsSync(target)) {
      if (inUse(target)) throw new BackupError(t("cli:restore.inUse", { path: target }));
      if (options.force !== true) throw new BackupError(t("cli:restore.exists", { path: target }));
    }
    mkdirSync(dirname(target), { recursive: true });
    const partial = `${target}.restoring`;
    rmSync(partial, { force: true });
    const source = new SqliteDatabase(backup, { readonly: true, fileMustExist: true });
    try {
      await source.backup(partial, { progress: () => ALL_PAGES });
    } finally {
      source.close();
    }
    // The old database's write-ahead log and index belong to the old file: left beside the new
    // one, SQLite would replay the old pages onto it.
    rmSync(`${target}-wal`, { force: true });
    rmSync(`${target}-shm`, { force: true });
    renameSync(partial, target);
    io.stdout(`${t("cli:restore.done", { path: target, backup })}\n`);
    return 0;
  } catch (error) {
    return reportBackupError(error, io, t);
  }
}

/**
 * Whether another connection has the database open (a running Sino, a `sqlite3` shell). In WAL
 * mode a connection can only take EXCLUSIVE locking mode when it is the only one: SQLite answers
 * SQLITE_BUSY at once (no busy wait) if anyone else is connected, even idle.
 */
function inUse(path: string): boolean {
  let database: SqliteDatabase.Database;
  try {
    database = new SqliteDatabase(path, { fileMustExist: true, timeout: 0 });
  } catch {
    return false; // not a database we can open: replacing it takes --force like any other file
  }
  try {
    database.pragma("locking_mode = EXCLUSIVE");
    database.exec("BEGIN EXCLUSIVE");
    database.exec("ROLLBACK");
    return false;
  } catch (error) {
    if ((error as { code?: unknown }).code === "SQLITE_BUSY") return true;
    return false;
  } finally {
    database.close();
  }
}

/** A sound SQLite file with Sino's tables, from this version or an earlier one. */
function checkSinoDatabase(path: string, t: Translator["t"]): void {
  let database: SqliteDatabase.Database;
  try {
    database = new SqliteDatabase(path, { readonly: true, fileMustExist: true });
  } catch {
    throw new BackupError(t("cli:restore.notSino", { path }));
  }
  try {
    let applied: string[];
    try {
      if (database.pragma("quick_check", { simple: true }) !== "ok") throw new BackupError(t("cli:restore.damaged", { path }));
      applied = database.prepare<[], { name: string }>("select name from kysely_migration order by name").all().map((row) => row.name);
    } catch (error) {
      if (error instanceof BackupError) throw error;
      throw new BackupError(t("cli:restore.notSino", { path }));
    }
    const known = new Set(MIGRATIONS.map(([name]) => name));
    if (applied.length === 0 || !applied.includes(MIGRATIONS[0]![0])) throw new BackupError(t("cli:restore.notSino", { path }));
    const unknown = applied.filter((name) => !known.has(name));
    if (unknown.length > 0) throw new BackupError(t("cli:restore.newer", { path, migration: unknown[unknown.length - 1] }));
  } finally {
    database.close();
  }
}
