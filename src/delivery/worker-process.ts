import { generateVapidKeys, type VapidKeys } from "../push/vapid-keys.js";
import type { Database } from "../store/database.js";
import { openObservedDatabase } from "../store/database-outage.js";
import { migrateToLatest } from "../store/migrate.js";
import { createRepositories } from "../store/repositories.js";
import { ensureVapidKeys } from "../store/vapid-keys-store.js";
import { waitForDatabase } from "../store/wait-for-database.js";
import type { DeliveryEngine } from "./engine.js";
import type { DeliveryMetrics } from "./push-metrics.js";
import type { RuntimeObservers } from "./loop-observers.js";
import { createDeliveryRuntime, type DeliveryRuntimeConfig, type DeliveryStats } from "./runtime.js";
import type { DeliveryLogger } from "./worker.js";

/** What a worker process reads from the configuration (the server's `Config` has this shape). */
export interface WorkerConfig extends DeliveryRuntimeConfig {
  readonly databaseUrl: string;
  readonly databasePoolSize: number;
  readonly databaseSchema: string;
  readonly vapidKeys: VapidKeys | undefined;
}

export interface RunningWorker {
  readonly engine: DeliveryEngine;
  readonly database: Database;
  /** Push connections and encryption threads right now (metrics). */
  stats(): DeliveryStats;
  /**
   * Graceful (SIGTERM): claims nothing more, finishes and checkpoints the sub-batches in flight,
   * gives its leases back, then closes the connections and the database.
   */
  close(): Promise<void>;
}

/**
 * `sino worker`: the delivery engine alone, no HTTP server. Any number of these, on any number of
 * machines, share the notifications of one PostgreSQL database through row locks and leases.
 */
export async function startWorker(
  config: WorkerConfig,
  logger: DeliveryLogger,
  observers: Pick<RuntimeObservers, "liveness"> = {},
  metrics?: DeliveryMetrics,
): Promise<RunningWorker> {
  const { database, outage } = openObservedDatabase({ url: config.databaseUrl, poolSize: config.databasePoolSize, schema: config.databaseSchema }, logger, () =>
    metrics?.databaseErrors.inc({ kind: "connection" }),
  );
  try {
    await waitForDatabase(database, { logger });
    await migrateToLatest(database);
    const repositories = createRepositories(database);
    const vapidKeys = await ensureVapidKeys(repositories.settings, generateVapidKeys, config.vapidKeys);
    const runtime = createDeliveryRuntime(config, repositories, vapidKeys, logger, { ...observers, outage }, metrics);
    runtime.start();
    let closing: Promise<void> | undefined;
    return {
      engine: runtime.engine,
      database,
      stats: () => runtime.stats(),
      close: () => (closing ??= runtime.close({ graceful: true }).then(() => outage.close()).then(() => database.destroy())),
    };
  } catch (error) {
    outage.close();
    await database.destroy().catch(() => undefined);
    throw error;
  }
}
