import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, sql, type SqliteDialectConfig } from "kysely";
import pg from "pg";
import type { Schema } from "./schema.js";

export type Dialect = "sqlite" | "postgres";

export interface DatabaseOptions {
  /** `postgres://…`/`postgresql://…`, `sqlite:<path>` or a plain file path. */
  readonly url?: string;
  /** PostgreSQL only: the schema every pooled connection uses (`search_path`); tests use one each. */
  readonly schema?: string;
  /** PostgreSQL only: the most connections the pool opens. */
  readonly poolSize?: number;
  /**
   * PostgreSQL only: told when a pooled connection fails outside any query (the server restarted,
   * `pg_terminate_backend`, a proxy's idle timeout). Without a listener node-postgres would throw
   * the error as an unhandled 'error' event and end the process; the pool drops the connection
   * and opens a new one for the next query either way.
   */
  readonly onConnectionError?: (error: Error) => void;
}

export interface Database {
  readonly db: Kysely<Schema>;
  readonly dialect: Dialect;
  /** PostgreSQL: the schema in use (`public` unless one was given); SQLite: undefined. */
  readonly schema: string | undefined;
  /** PostgreSQL: the connection pool's state now (metrics); SQLite (one connection, no pool): absent. */
  readonly pool?: () => PoolStats;
  destroy(): Promise<void>;
}

export interface PoolStats {
  /** Connections open, busy or idle. */
  readonly total: number;
  readonly idle: number;
  /** Queries waiting for a connection: the pool is too small for the load when this stays above 0. */
  readonly waiting: number;
  /** SINO_DATABASE_POOL_SIZE. */
  readonly max: number;
}

/** One trivial query: resolves once the database answers (start-up waits on it). */
export async function pingDatabase(database: Pick<Database, "db">): Promise<void> {
  await sql`select 1`.execute(database.db);
}

/** What a repository is built from: the query builder and the dialect its SQL may differ by. */
export type DatabaseHandle = Pick<Database, "db" | "dialect">;

/** PostgreSQL connections per process (SINO_DATABASE_POOL_SIZE). */
export const DEFAULT_POOL_SIZE = 10;

export const DEFAULT_DATABASE_URL = "./data/sino.db";

/** PostgreSQL type OIDs whose text form is parsed to a JS number (see `createPgTypes`). */
const PG_INT8_OID = 20;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function dialectOf(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}

export function createDatabase(options: DatabaseOptions = {}): Database {
  const url = options.url ?? DEFAULT_DATABASE_URL;
  return dialectOf(url) === "postgres" ? createPostgres(url, options) : createSqlite(url);
}

/** Turns `sqlite:./data/sino.db`, `sqlite://./x.db` or `./x.db` into a file path. */
export function sqlitePath(url: string): string {
  if (url.startsWith("sqlite://")) return url.slice("sqlite://".length);
  if (url.startsWith("sqlite:")) return url.slice("sqlite:".length);
  return url;
}

function createSqlite(url: string): Database {
  const path = sqlitePath(url);
  if (path !== ":memory:") mkdirSync(dirname(resolve(path)), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  // WAL lets readers run beside the single writer; busy_timeout makes a second process wait for
  // the write lock instead of failing at once with SQLITE_BUSY.
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: "sqlite", schema: undefined, destroy: () => db.destroy() };
}

/** Distinct SQL texts kept prepared; Sino's queries are a few dozen shapes (IN lists vary in length). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely's SQLite driver prepares every query anew; compiling the same SQL thousands of times a
 * second (a fan-out's target reads and checkpoints) costs more than running it. Statements are
 * kept by their SQL text and reused: safe, because Kysely runs one query at a time on its single
 * connection and Sino never streams from SQLite (a statement being iterated cannot be reused).
 * SQLite re-prepares a kept statement by itself when a migration changes the schema.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig["database"] {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    prepare(sqlText: string) {
      let statement = statements.get(sqlText);
      if (statement === undefined) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = sqlite.prepare(sqlText);
        statements.set(sqlText, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}

function createPostgres(url: string, options: DatabaseOptions): Database {
  const schema = options.schema ?? "public";
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid PostgreSQL schema name: ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    // A database that does not answer at all (a host gone, a black-holing firewall) fails the
    // query after this long instead of leaving requests and lanes hanging on the OS's TCP timeout.
    connectionTimeoutMillis: 10_000,
    // TCP keep-alive notices a peer that vanished without closing (a failover, a NAT timeout).
    keepAlive: true,
    types: createPgTypes(),
    // A startup parameter rather than a `SET` after connecting: every pooled connection gets it,
    // with no extra round trip and no window where a query could run on the wrong schema.
    options: `-c search_path=${schema}`,
  });
  const onError = options.onConnectionError ?? (() => undefined);
  // Idle connections: the pool re-emits their errors (and drops them).
  pool.on("error", onError);
  // Checked-out connections (a transaction between two statements, a lane's query): the pool
  // takes its own listener off while a client is lent out, so each client gets one of ours for
  // good; the query in flight, if any, fails with the error as well.
  pool.on("connect", (client) => client.on("error", onError));
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  const max = options.poolSize ?? DEFAULT_POOL_SIZE;
  return {
    db,
    dialect: "postgres",
    schema,
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }),
    destroy: () => db.destroy(),
  };
}

/**
 * Type parsers for this pool only (not pg's process-wide `types.setTypeParser`, which would change
 * every other pool in the process). BIGINT/BIGSERIAL come back as numbers: ids and epoch
 * milliseconds stay far below 2^53.
 */
function createPgTypes(): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: "text" | "binary") => {
      if (oid === PG_INT8_OID && format !== "binary") return (value: string) => Number(value);
      return format === "binary" ? pg.types.getTypeParser(oid, "binary") : pg.types.getTypeParser(oid, "text");
    }) as pg.CustomTypesConfig["getTypeParser"],
  };
}
