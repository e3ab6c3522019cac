import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { DeliveryStats } from "../../delivery/runtime.js";
import type { DeliveryMetrics } from "../../delivery/push-metrics.js";
import { NOTIFICATION_EVENT_TYPES } from "../../shared/api/events.js";
import { NOTIFICATION_STATUSES } from "../../shared/api/notifications.js";
import type { Database } from "../../store/database.js";
import type { QueueMetricsRepository } from "../../store/queue-metrics-repository.js";

/** Where the database's failures were seen. */
export type DatabaseErrorKind = "connection" | "request" | "scrape";
/** A registration answered 201 (a new browser) or 200 (one already known: new keys, a renewal). */
export type RegistrationOutcome = "created" | "updated";

/**
 * One process's Prometheus registry and the series Sino exports (the README's "Métricas" table
 * lists them). Built by the process entry (`startServer`, `startWorker`) and passed down: tests
 * build their own, and nothing is shared through a global registry.
 */
export interface Metrics extends DeliveryMetrics {
  readonly registry: Registry;
  /** Pushes by push-service host and outcome class, counted per sub-batch by the delivery lanes. */
  readonly pushes: Counter<"host" | "outcome">;
  /** Service-worker reports answered 204 (POST /events), by type; repeats of a report included. */
  readonly events: Counter<"type">;
  /** Subscription registrations answered 201/200 (POST /subscriptions). */
  readonly registrations: Counter<"outcome">;
  /** Time to answer, by method, route pattern (never the raw URL) and status; live streams left out. */
  readonly httpDuration: Histogram<"method" | "route" | "status">;
  readonly databaseErrors: Counter<"kind">;
  /** Tells the scrape-time gauges what to read; each process passes what it has. */
  observe(sources: MetricsSources): void;
  /** The Prometheus text exposition, with the scrape-time gauges read now. */
  scrape(): Promise<string>;
  readonly contentType: string;
}

export interface MetricsSources {
  /** The sends and the delivery queue (the same numbers in every process of one database). */
  readonly queue?: QueueMetricsRepository;
  /** The PostgreSQL pool of this process. */
  readonly database?: Pick<Database, "pool">;
  /** This process's push connections and encryption threads. */
  readonly delivery?: { stats(): DeliveryStats };
}

export interface MetricsOptions {
  /** The default process metrics (CPU, memory, event loop, GC); tests may leave them out. */
  readonly processMetrics?: boolean;
  readonly clock?: () => number;
}

/** Seconds; from a cached config read to a slow CSV export. */
const HTTP_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export function createMetrics(options: MetricsOptions = {}): Metrics {
  const clock = options.clock ?? Date.now;
  const registry = new Registry();
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: MetricsSources = {};

  const pushes = new Counter({
    name: "sino_pushes_total",
    help: "Pushes made by this process, by push-service host and outcome (accepted, retry, failed, removed).",
    labelNames: ["host", "outcome"] as const,
    registers,
  });
  const events = new Counter({
    name: "sino_events_received_total",
    help: "Service-worker reports answered 204 by this process (POST /events), by type.",
    labelNames: ["type"] as const,
    registers,
  });
  const registrations = new Counter({
    name: "sino_registrations_total",
    help: "Subscription registrations this process answered (POST /subscriptions): created (201) or updated (200).",
    labelNames: ["outcome"] as const,
    registers,
  });
  const httpDuration = new Histogram({
    name: "sino_http_request_duration_seconds",
    help: "Time this process took to answer HTTP requests, by method, route pattern and status.",
    labelNames: ["method", "route", "status"] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const databaseErrors = new Counter({
    name: "sino_database_errors_total",
    help: "Database failures seen by this process: connection (a pooled connection broke), request (answered 503), scrape (metrics could not read the queue).",
    labelNames: ["kind"] as const,
    registers,
  });

  // Scrape-time gauges: set from their sources by `refresh()` just before each exposition.
  const sends = new Gauge({ name: "sino_sends", help: "Sends by status, from the database.", labelNames: ["status"] as const, registers });
  const pendingJobs = new Gauge({ name: "sino_delivery_jobs_pending", help: "Range jobs of sends not yet walked to their end, from the database.", registers });
  const oldestJobAge = new Gauge({
    name: "sino_delivery_oldest_job_age_seconds",
    help: "How long the oldest pending job's send has waited since it started (0 with none), from the database.",
    registers,
  });
  const retries = new Gauge({ name: "sino_delivery_retries", help: "Pushes waiting for another attempt, from the database.", registers });
  const retriesDue = new Gauge({ name: "sino_delivery_retries_due", help: "Pushes whose retry time has come but no lane has taken yet, from the database.", registers });
  const pushInFlight = new Gauge({ name: "sino_push_requests_in_flight", help: "Push requests this process has in flight to push services.", registers });
  const pushQueued = new Gauge({ name: "sino_push_requests_queued", help: "Push requests waiting for a slot (SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN) in this process.", registers });
  const encryptionThreads = new Gauge({ name: "sino_encryption_threads", help: "Encryption worker threads of this process (0 until the first push starts them).", registers });
  const encryptionTasks = new Gauge({ name: "sino_encryption_tasks", help: "Encryption batch tasks running or queued in this process's pool.", registers });
  const encryptionBusy = new Counter({
    name: "sino_encryption_busy_seconds_total",
    help: "Thread-seconds the encryption threads spent busy; rate() / sino_encryption_threads is the pool's utilisation.",
    registers,
  });
  const encryptionMessages = new Counter({ name: "sino_encryption_messages_total", help: "Messages the encryption threads encrypted.", registers });
  // Only where there is a pool (PostgreSQL): SQLite's one connection would show a meaningless 0.
  let poolGauges: { connections: Gauge<"state">; max: Gauge } | undefined;
  function poolGaugesOnce(): { connections: Gauge<"state">; max: Gauge } {
    return (poolGauges ??= {
      connections: new Gauge({
        name: "sino_database_pool_connections",
        help: "PostgreSQL pool of this process: idle and busy connections, and queries waiting for one.",
        labelNames: ["state"] as const,
        registers,
      }),
      max: new Gauge({ name: "sino_database_pool_max", help: "Most PostgreSQL connections this process opens (SINO_DATABASE_POOL_SIZE).", registers }),
    });
  }

  // The pool's counters restart with it (a stopped and restarted engine): only increases are added.
  let encryptionSeen = { busySeconds: 0, messages: 0 };

  async function refresh(): Promise<void> {
    const { queue, database, delivery } = sources;
    if (queue !== undefined) {
      try {
        const now = clock();
        const snapshot = await queue.snapshot(now);
        for (const status of NOTIFICATION_STATUSES) sends.set({ status }, snapshot.notificationsByStatus.get(status) ?? 0);
        pendingJobs.set(snapshot.pendingJobs);
        oldestJobAge.set(snapshot.oldestPendingSince === null ? 0 : Math.max(0, now - snapshot.oldestPendingSince) / 1000);
        retries.set(snapshot.retries);
        retriesDue.set(snapshot.retriesDue);
      } catch {
        // The rest of the scrape still answers (process metrics say the most when the database is down).
        databaseErrors.inc({ kind: "scrape" });
      }
    }
    const pool = database?.pool?.();
    if (pool !== undefined) {
      const gauges = poolGaugesOnce();
      gauges.connections.set({ state: "idle" }, pool.idle);
      gauges.connections.set({ state: "busy" }, pool.total - pool.idle);
      gauges.connections.set({ state: "waiting" }, pool.waiting);
      gauges.max.set(pool.max);
    }
    if (delivery !== undefined) {
      const stats = delivery.stats();
      pushInFlight.set(stats.transport.inFlight);
      pushQueued.set(stats.transport.queued);
      const encryption = stats.encryption;
      encryptionThreads.set(encryption?.threads ?? 0);
      encryptionTasks.set(encryption?.tasks ?? 0);
      if (encryption !== undefined) {
        if (encryption.busySeconds < encryptionSeen.busySeconds || encryption.messages < encryptionSeen.messages) encryptionSeen = { busySeconds: 0, messages: 0 };
        encryptionBusy.inc(encryption.busySeconds - encryptionSeen.busySeconds);
        encryptionMessages.inc(encryption.messages - encryptionSeen.messages);
        encryptionSeen = { busySeconds: encryption.busySeconds, messages: encryption.messages };
      }
    }
  }

  // Every label value a dashboard filters on exists from the start, at 0 (rate() needs a first sample).
  for (const type of NOTIFICATION_EVENT_TYPES) events.inc({ type }, 0);
  for (const outcome of ["created", "updated"] as const) registrations.inc({ outcome }, 0);
  for (const kind of ["connection", "request", "scrape"] as const) databaseErrors.inc({ kind }, 0);

  return {
    registry,
    pushes,
    events,
    registrations,
    httpDuration,
    databaseErrors,
    observe(next) {
      sources = { ...sources, ...next };
      if (sources.database?.pool !== undefined) poolGaugesOnce();
    },
    async scrape() {
      await refresh();
      return registry.metrics();
    },
    contentType: registry.contentType,
  };
}
