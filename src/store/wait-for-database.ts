import { setTimeout as sleep } from "node:timers/promises";

import { isDatabaseUnavailable } from "./database-unavailable.js";
import { pingDatabase, type Database } from "./database.js";

export interface WaitForDatabaseOptions {
  /** Structured logging (pino-compatible). */
  readonly logger: { warn(details: object, message: string): void; info(details: object, message: string): void };
  /** The first pause; each further one doubles, up to `maxDelayMs`. */
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Start-up when the database is not reachable yet (it is still starting, a failover is under
 * way, the containers came up in the wrong order): wait for it with a growing pause, saying so
 * in the log each time, instead of exiting. Any other error (a wrong password, a missing
 * database) is thrown at once: waiting would not fix it.
 */
export async function waitForDatabase(database: Database, options: WaitForDatabaseOptions): Promise<void> {
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const pause = options.sleep ?? ((ms: number) => sleep(ms));
  let delayMs = options.initialDelayMs ?? 500;
  let waited = false;
  for (let attempt = 1; ; attempt++) {
    try {
      await pingDatabase(database);
      if (waited) options.logger.info({ attempt }, "database reachable; starting");
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      options.logger.warn(
        { attempt, retryInMs: delayMs, cause: error instanceof Error ? error.message : String(error) },
        "database unavailable at start-up; waiting for it",
      );
      waited = true;
      await pause(delayMs);
      delayMs = Math.min(maxDelayMs, delayMs * 2);
    }
  }
}
