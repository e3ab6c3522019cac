import type { FastifyBaseLogger } from "fastify";
import type { DeliveryEngine } from "../delivery/engine.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createDatabase, type Database } from "../store/database.js";
import { migrateToLatest } from "../store/migrate.js";
import { createSettingsRepository } from "../store/settings-repository.js";
import { ensureVapidKeys } from "../store/vapid-keys-store.js";
import type { Config } from "./config.js";
import { createDeliveryRuntime } from "./delivery.js";
import { createLogger } from "./logger.js";
import { waitForDatabase } from "./wait-for-database.js";

export interface RunningWorker {
  readonly engine: DeliveryEngine;
  readonly database: Database;
  /**
   * Graceful (SIGTERM): claims nothing more, finishes and checkpoints the sub-batches in flight,
   * gives its leases back, then closes the connections and the database.
   */
  close(): Promise<void>;
}

/**
 * `sino worker`: the delivery engine alone, no HTTP server. Any number of these, on any number of
 * machines, share the sends of one PostgreSQL database through row locks and leases.
 */
export async function startWorker(config: Config, options: { logger?: FastifyBaseLogger } = {}): Promise<RunningWorker> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const database = createDatabase({
    url: config.databaseUrl,
    poolSize: config.databasePoolSize,
    schema: config.databaseSchema,
    onConnectionError: (error) => logger.warn({ cause: error.message }, "database connection lost; the next query reconnects"),
  });
  try {
    await waitForDatabase(database, { logger });
    await migrateToLatest(database);
    const vapidKeys = await ensureVapidKeys(createSettingsRepository(database.db), generateVapidKeys, config.vapidKeys);
    const runtime = createDeliveryRuntime(config, database, vapidKeys, logger);
    runtime.start();
    let closing: Promise<void> | undefined;
    return {
      engine: runtime.engine,
      database,
      close: () => (closing ??= runtime.close({ graceful: true }).then(() => database.destroy())),
    };
  } catch (error) {
    await database.destroy().catch(() => undefined);
    throw error;
  }
}
