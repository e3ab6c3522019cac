import type { AddressInfo } from "node:net";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { sqlitePath, type Database } from "../store/database.js";
import { openObservedDatabase, type DatabaseOutage } from "../store/database-outage.js";
import { migrateToLatest } from "../store/migrate.js";
import { createRepositories } from "../store/repositories.js";
import { ensureVapidKeys } from "../store/vapid-keys-store.js";
import type { DeliveryEngine } from "../delivery/engine.js";
import { createDeliveryRuntime, type DeliveryRuntime } from "../delivery/runtime.js";
import { buildApp } from "./app.js";
import { createIngestion, type Ingestion } from "./ingestion/ingestion.js";
import type { Config } from "./config.js";
import { createTranslator } from "./i18n.js";
import { createLiveness, type Liveness } from "./health/liveness.js";
import { createReadinessCheck } from "./health/readiness.js";
import { createLogger } from "./logger.js";
import { waitForDatabase } from "../store/wait-for-database.js";
import { createMetrics, type Metrics } from "./metrics/metrics.js";
import type { MetricsListener } from "./metrics/metrics-endpoint.js";
import { exposeProcessMetrics } from "./metrics/process-metrics.js";

export interface RunningServer {
  /** Where the server listens, e.g. `http://127.0.0.1:8080` (`localhost` when bound to all interfaces). */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly database: Database;
  /** Creates and tracks sends; its worker lanes run here unless SINO_WORKER_EMBEDDED=false. */
  readonly delivery: DeliveryEngine;
  /** This process's Prometheus registry (GET /metrics, or the SINO_METRICS_LISTEN listener). */
  readonly metrics: Metrics;
  /** Where the SINO_METRICS_LISTEN listener serves /metrics, when configured. */
  readonly metricsUrl: string | undefined;
  /** Which background loops of this process still come round (GET /readyz, metrics). */
  readonly liveness: Liveness;
  /** This process's database outage tracker (one log line when it starts, one when it ends). */
  readonly outage: DatabaseOutage;
  /** The group-committed write paths (reports, registrations, unsubscribes) and their counts. */
  readonly ingestion: Ingestion;
  /** Stops accepting requests, waits for those in flight, then closes the database. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** A logger to use instead of one made from `config.logLevel`. */
  readonly logger?: FastifyBaseLogger;
  /** PostgreSQL only: run in this schema instead of `public` (tests give each server its own). */
  readonly schema?: string;
  /** The process's metrics registry (default: a new one with the process metrics). */
  readonly metrics?: Metrics;
}

/** All the wiring: open and migrate the database, load or create the VAPID keys, listen. */
export async function startServer(config: Config, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = options.metrics ?? createMetrics();
  const { database, outage } = openObservedDatabase(
    { url: config.databaseUrl, poolSize: config.databasePoolSize, schema: options.schema ?? config.databaseSchema },
    logger,
    () => metrics.databaseErrors.inc({ kind: "connection" }),
  );
  const liveness = createLiveness();
  const translator = createTranslator();
  let app: FastifyInstance | undefined;
  let delivery: DeliveryRuntime | undefined;
  let metricsListener: MetricsListener | undefined;
  try {
    await waitForDatabase(database, { logger });
    await migrateToLatest(database);
    const repositories = createRepositories(database);
    const vapidKeys = await ensureVapidKeys(repositories.settings, generateVapidKeys, config.vapidKeys);
    delivery = createDeliveryRuntime(config, repositories, vapidKeys, logger, { liveness, outage }, metrics);
    const ingestion = createIngestion({
      events: repositories.notificationEvents,
      subscriptions: repositories.subscriptions,
      subscriptionChannels: repositories.subscriptionChannels,
      dialect: database.dialect,
      capacity: config.writeQueue,
    });
    app = await buildApp({
      ingestion,
      config,
      repositories,
      vapidKeys,
      logger,
      translator,
      metrics,
      delivery: delivery.engine,
      ...(config.delivery.embedded ? { webhookDispatcher: delivery.webhooks, feedPoller: delivery.feeds } : {}),
      outage,
      readiness: createReadinessCheck({
        database,
        sqliteFile: database.dialect === "sqlite" ? sqlitePath(config.databaseUrl) : undefined,
        liveness,
      }),
    });
    await app.listen({ port: config.port, host: config.host });
    metricsListener = await exposeProcessMetrics({ metrics, config: config.metrics, database, delivery, liveness, translator, logger });
    if (config.delivery.embedded) delivery.start();
    const started = app;
    const runtime = delivery;
    const listener = metricsListener;
    const url = urlOf(started.server.address() as AddressInfo);
    let closing: Promise<void> | undefined;
    return {
      url,
      app: started,
      database,
      delivery: runtime.engine,
      metrics,
      metricsUrl: listener?.url,
      liveness,
      ingestion,
      outage,
      // Requests first (no new sends; the write queues drain before connections close), then the lanes finish their sub-batches, then the database.
      close: () =>
        (closing ??= Promise.all([started.close(), listener?.close()])
          .then(() => runtime.close({ graceful: true }))
          .then(() => outage.close())
          .then(() => database.destroy())),
    };
  } catch (error) {
    await metricsListener?.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await delivery?.close().catch(() => undefined);
    outage.close();
    await database.destroy().catch(() => undefined);
    throw error;
  }
}

function urlOf(address: AddressInfo): string {
  const unspecified = address.address === "0.0.0.0" || address.address === "::";
  const host = unspecified ? "localhost" : address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
