import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../store/database.js";
import type { DeliveryStats } from "../../delivery/runtime.js";
import { createQueueMetricsRepository } from "../../store/queue-metrics-repository.js";
import type { MetricsConfig } from "../config.js";
import type { Liveness } from "../health/liveness.js";
import type { Translator } from "../i18n.js";
import { startMetricsListener, type MetricsListener } from "./metrics-endpoint.js";
import type { Metrics } from "./metrics.js";

export interface ProcessMetricsDeps {
  readonly metrics: Metrics;
  readonly config: MetricsConfig;
  readonly database: Database;
  readonly delivery: { stats(): DeliveryStats };
  /** The background loops this process runs (their heartbeats become `sino_loop_*`). */
  readonly liveness: Pick<Liveness, "status">;
  readonly translator: Translator;
  readonly logger: FastifyBaseLogger;
}

/**
 * Points one process's scrape-time gauges at what it runs (its database, its delivery runtime) and
 * starts the SINO_METRICS_LISTEN listener when one is configured. `sino start` and `sino worker`
 * both call it: each process exposes its own numbers.
 */
export async function exposeProcessMetrics(deps: ProcessMetricsDeps): Promise<MetricsListener | undefined> {
  deps.metrics.observe({ queue: createQueueMetricsRepository(deps.database), database: deps.database, delivery: deps.delivery, liveness: deps.liveness });
  if (deps.config.listen === undefined) return undefined;
  const listener = await startMetricsListener({
    metrics: deps.metrics,
    token: deps.config.token,
    listen: deps.config.listen,
    translator: deps.translator,
    logger: deps.logger,
  });
  deps.logger.info({ url: `${listener.url}/metrics` }, "metrics listener started");
  return listener;
}
