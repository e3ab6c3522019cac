import { createDatabase, pingDatabase, type Database, type DatabaseOptions } from "./database.js";
import { isDatabaseUnavailable } from "./database-unavailable.js";

/** pino-compatible; an outage never logs a stack (it is expected, and says nothing of the code). */
export interface OutageLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
  debug?(details: object, message: string): void;
}

/**
 * One process's view of the database being away: every loop and request that fails on it reports
 * here, and the log gets one warning when the outage starts and one line when it ends (with its
 * length), not a stack trace per loop per second. While it lasts, the tracker pings the database
 * itself, so the end is noticed (and logged) even in a process where nothing else is running.
 */
export interface DatabaseOutage {
  /**
   * Reports a failure. Returns true when it means the database is unavailable (the outage is
   * logged here; the caller logs nothing more), false for any other error (the caller's to log).
   */
  failed(error: unknown, source: string): boolean;
  /** A query of `source` just succeeded: ends the outage, if there is one. */
  succeeded(): void;
  /** Epoch ms when the current outage started, or undefined. */
  readonly since: number | undefined;
  /** Stops the pings (the process is closing). */
  close(): void;
}

export interface DatabaseOutageDeps {
  readonly logger: OutageLogger;
  /** One trivial query (`pingDatabase`): how the tracker notices the end by itself. */
  readonly ping: () => Promise<void>;
  readonly clock?: () => number;
  /** Pause between two pings during an outage (default 1 s). */
  readonly pingIntervalMs?: number;
}

export function createDatabaseOutage(deps: DatabaseOutageDeps): DatabaseOutage {
  const clock = deps.clock ?? Date.now;
  const pingIntervalMs = deps.pingIntervalMs ?? 1_000;
  let since: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function end(): void {
    if (since === undefined) return;
    const outageMs = clock() - since;
    since = undefined;
    clearTimeout(timer);
    timer = undefined;
    deps.logger.info({ outageMs }, "database available again");
  }

  function schedulePing(): void {
    if (closed || since === undefined) return;
    timer = setTimeout(() => {
      deps.ping().then(end, (error: unknown) => {
        if (!isDatabaseUnavailable(error)) deps.logger.debug?.({ cause: messageOf(error) }, "database ping failed");
        schedulePing();
      });
    }, pingIntervalMs);
    // The pings must never keep a stopping process alive.
    timer.unref();
  }

  return {
    failed(error, source) {
      if (!isDatabaseUnavailable(error)) return false;
      if (since === undefined) {
        since = clock();
        deps.logger.warn({ source, cause: messageOf(error) }, "database unavailable; everything waits and retries until it returns");
        schedulePing();
      } else deps.logger.debug?.({ source, cause: messageOf(error) }, "database still unavailable");
      return true;
    },
    succeeded: end,
    get since() {
      return since;
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The database with its outage tracker: a pooled connection dropped by the server (a restart,
 * `pg_terminate_backend`) reports to the tracker, so `sino start` and `sino worker` log an outage
 * once when it starts and once when it ends.
 */
export function openObservedDatabase(
  options: Omit<DatabaseOptions, "onConnectionError">,
  logger: OutageLogger,
  /** Also told of every dropped pool connection (the metrics count them). */
  onConnectionError?: (error: Error) => void,
): { database: Database; outage: DatabaseOutage } {
  // The tracker pings only during an outage, long after `database` exists.
  const outage = createDatabaseOutage({ logger, ping: () => pingDatabase(database) });
  const database = createDatabase({
    ...options,
    onConnectionError: (error) => {
      onConnectionError?.(error);
      if (!outage.failed(error, "pool")) logger.warn({ cause: error.message }, "database connection lost; the next query reconnects");
    },
  });
  return { database, outage };
}
