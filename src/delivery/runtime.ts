import type { EngagementRules } from "../store/delivery-gates-repository.js";
import { readFileSync } from "node:fs";
import type { EndpointPolicy } from "../push/endpoint-policy.js";
import { createPushSender } from "../push/sender.js";
import type { EncryptionPoolStats } from "../push/encryption-pool.js";
import { createPushTransport, type PushTransport, type TransportStats } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import type { VapidKeys } from "../push/vapid-keys.js";
import { organisationLogoUrl } from "../shared/api/organisation.js";
import type { Repositories } from "../store/repositories.js";
import { resolveDeliveryOptions } from "./delivery-options.js";
import { createDeliveryEngine, type DeliveryEngine } from "./engine.js";
import type { DeliveryMetrics } from "./push-metrics.js";
import { createHygieneTask, type HygieneOptions, type HygieneTask } from "./hygiene-task.js";
import { createRetention, type RetentionOptions } from "./retention-task.js";
import { createSegmentSizesTask, type SegmentSizesTask } from "./segment-sizes-task.js";
import { createScheduler, type Scheduler } from "./scheduler.js";
import { createWebhookDispatcher, type WebhookDispatcher } from "./webhooks/dispatcher.js";
import { createWebhookClient } from "./webhooks/webhook-client.js";
import { createFeedFetcher } from "./feeds/feed-fetcher.js";
import { createFeedPoller, type FeedPoller } from "./feeds/feed-poller.js";
import type { LoopComponent, LoopObservers, RuntimeObservers } from "./loop-observers.js";
import type { DeliveryLogger } from "./worker.js";
import { createLocalTimeGate } from "./gates/local-time-gate.js";
import { DEFAULT_TIME_ZONE } from "../shared/time/zoned-time.js";
import { createVapidKeyRing } from "./vapid-key-ring.js";

/** The part of the configuration delivery reads (the server's `Config` has this shape). */
export interface DeliveryRuntimeConfig {
  /** SINO_PUBLIC_URL: the organisation's logo, the default icon of a notification, is served there. */
  readonly publicUrl: string;
  readonly vapidSubject: string;
  readonly endpointPolicy: EndpointPolicy;
  readonly delivery: DeliveryRuntimeOptions;
  readonly hygiene: HygieneOptions;
  /** SINO_*_RETENTION_DAYS (absent: no retention pass). */
  readonly retention?: RetentionOptions;
  /** SINO_SLEEPING_DAYS: the daily active / sleeping snapshot (absent: 30). */
  readonly sleepingDays?: number;
  readonly webhooks: WebhookRuntimeOptions & { readonly allowPrivateAddresses: boolean };
  /** SINO_TIME_ZONE: the zone of subscribers (and sites) that report none; default America/Sao_Paulo. */
  readonly timeZone?: string;
  /** SINO_SEND_WINDOW: when marketing goes out in each subscriber's zone; default 08:00-21:00. */
  readonly sendWindow?: string;
  /** SINO_FEED_*; absent (some tests): the defaults of `DEFAULT_FEED_RUNTIME_OPTIONS`. */
  readonly feeds?: FeedRuntimeOptions;
  /** gates: SINO_FREQUENCY_CAP / SINO_SLEEPING_DAYS; absent: no cap, nobody sleeps. */
  readonly engagement?: EngagementRules;
}

/** How this process polls feeds (the SINO_FEED_* options). */
export interface FeedRuntimeOptions {
  /** SINO_FEED_ALLOW_PRIVATE: tests and local development only (plain http, private addresses). */
  readonly allowPrivateAddresses: boolean;
  /** SINO_FEED_TIMEOUT_MS: deadline of one fetch, redirects included. */
  readonly timeoutMs: number;
  /** SINO_FEED_MAX_BYTES: a longer answer is refused. */
  readonly maxBytes: number;
  /** SINO_FEED_MAX_ITEMS_PER_POLL: new items one poll publishes (older ones are skipped). */
  readonly maxItemsPerPoll: number;
  /** SINO_FEED_CA_FILE: extra CA certificates (PEM) to trust for feeds; tests only. */
  readonly caFile: string | undefined;
}

export const DEFAULT_FEED_RUNTIME_OPTIONS: FeedRuntimeOptions = Object.freeze({
  allowPrivateAddresses: false,
  timeoutMs: 10_000,
  maxBytes: 2_000_000,
  maxItemsPerPoll: 5,
  caFile: undefined,
});

/** How often a worker looks for due feeds; each feed's own interval (≥ 1 minute) decides when it is polled. */
const FEED_TICK_MS = 5_000;
/** Up to this fraction of a feed's interval is added at random to each next poll. */
const FEED_JITTER = 0.2;

/** How this process delivers webhooks (the SINO_WEBHOOK_* options). */
export interface WebhookRuntimeOptions {
  /** SINO_WEBHOOK_TIMEOUT_MS: deadline of one delivery. */
  readonly timeoutMs: number;
  /** SINO_WEBHOOK_RETENTION_DAYS: delivered messages are deleted after this long; 0 keeps them. */
  readonly retentionDays: number;
  /** SINO_WEBHOOK_CA_FILE: extra CA certificates (PEM) to trust for receivers; tests only. */
  readonly caFile: string | undefined;
}

/** Requests in flight per webhook: a slow receiver holds no more than this many. */
const WEBHOOK_IN_FLIGHT_PER_WEBHOOK = 8;
/** Messages one process holds at once, every webhook together. */
const WEBHOOK_IN_FLIGHT = 64;

/** How this process delivers (the SINO_WORKER_*, SINO_LEASE_SECONDS, SINO_PUSH_* and SINO_ENCRYPTION_THREADS options). */
export interface DeliveryRuntimeOptions {
  /** SINO_WORKER_LANES: concurrent lanes per process, each with one sub-batch in flight. */
  readonly lanes: number;
  /** SINO_WORKER_BATCH: subscriptions per sub-batch (sent at once, then one checkpoint). */
  readonly batchSize: number;
  /** SINO_WORKER_POLL_MS: how often an idle worker looks for work. */
  readonly pollMs: number;
  /** SINO_LEASE_SECONDS: how long a job stays with a worker that stopped checkpointing. */
  readonly leaseMs: number;
  /** SINO_ENCRYPTION_THREADS: encryption worker threads; 0 encrypts on the main thread. */
  readonly encryptionThreads: number;
  /** SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN: requests in flight to one push service. */
  readonly maxInFlightPerOrigin: number;
  /** SINO_PUSH_TIMEOUT_MS: deadline of one push request. */
  readonly pushTimeoutMs: number;
  /** SINO_PUSH_CA_FILE: extra CA certificates (PEM) to trust for push services; tests only. */
  readonly pushCaFile: string | undefined;
}

export interface DeliveryRuntime {
  readonly engine: DeliveryEngine;
  /** Starts scheduled notifications when due; runs wherever the worker lanes run. */
  readonly scheduler: Scheduler;
  /** Warns, then removes, subscriptions whose browser has not come back (SINO_SUBSCRIPTION_*). */
  readonly hygiene: HygieneTask;
  /** Measures every saved segment's size once a day (its size-over-time chart). */
  readonly segmentSizes: SegmentSizesTask;
  /** Sends the webhook outbox; apart from the push lanes (its own loop and HTTP agent). */
  readonly webhooks: WebhookDispatcher;
  /** Polls the RSS/Atom feeds admins registered; runs wherever the worker lanes run, like the scheduler. */
  readonly feeds: FeedPoller;
  /** Starts the worker lanes and the scheduler. */
  start(): void;
  /** This process's push connections and encryption threads right now (metrics). */
  stats(): DeliveryStats;
  /** Stops the lanes (graceful: in-flight sub-batches finish and are checkpointed), then the connections. */
  close(options?: { graceful: boolean }): Promise<void>;
}

export interface DeliveryStats {
  readonly transport: TransportStats;
  /** Undefined until the first push starts the threads (or with SINO_ENCRYPTION_THREADS=0). */
  readonly encryption: EncryptionPoolStats | undefined;
}

/** The delivery engine wired from the configuration: transport, VAPID signer, options. */
export function createDeliveryRuntime(
  config: DeliveryRuntimeConfig,
  repositories: Repositories,
  vapidKeys: VapidKeys,
  logger: DeliveryLogger,
  runtimeObservers: RuntimeObservers = {},
  metrics?: DeliveryMetrics,
): DeliveryRuntime {
  const d = config.delivery;
  const { liveness } = runtimeObservers;
  const observers: LoopObservers = {
    ...(liveness === undefined ? {} : { heartbeat: liveness }),
    ...(runtimeObservers.outage === undefined ? {} : { outage: runtimeObservers.outage }),
  };
  const transport: PushTransport = createPushTransport({
    policy: config.endpointPolicy,
    requestTimeoutMs: d.pushTimeoutMs,
    maxInFlightPerOrigin: d.maxInFlightPerOrigin,
    ...(d.pushCaFile === undefined ? {} : { ca: readFileSync(d.pushCaFile, "utf8") }),
  });
  const engineOptions = {
    lanes: d.lanes,
    batchSize: d.batchSize,
    pollMs: d.pollMs,
    leaseMs: d.leaseMs,
    encryptionThreads: d.encryptionThreads,
  };
  const vapid = createVapidSigner({ keys: vapidKeys, subject: config.vapidSubject });
  // One ring per process: the lanes and the hygiene warnings share the sites' signers.
  const keyRing = createVapidKeyRing({ defaultSigner: vapid, keys: repositories.siteKeys });
  const engine = createDeliveryEngine({
    repositories,
    transport,
    vapid,
    keyRing,
    logger,
    options: engineOptions,
    ...(metrics === undefined ? {} : { metrics }),
    observers,
    publicUrl: config.publicUrl,
    localTime: createLocalTimeGate({
      defaultTimeZone: config.timeZone ?? DEFAULT_TIME_ZONE,
      ...(config.sendWindow === undefined ? {} : { defaultWindow: config.sendWindow }),
      sites: () => repositories.sites.listPlain(),
    }),
    ...(config.engagement === undefined ? {} : { engagement: config.engagement }), // gates
    async defaultIcon() {
      const organisation = await repositories.organisation.get();
      return organisation.logo === null || organisation.updatedAt === null ? null : organisationLogoUrl(config.publicUrl, organisation.updatedAt);
    },
  });
  const scheduler = createScheduler({
    notifications: repositories.notifications,
    clock: Date.now,
    jobSize: resolveDeliveryOptions(engineOptions).jobSize,
    pollMs: d.pollMs,
    logger,
    onStarted: () => engine.wake(),
    observers,
  });
  const hygiene = createHygieneTask({
    repository: repositories.hygiene,
    sender: createPushSender({ vapid, transport }),
    keyRing,
    clock: Date.now,
    logger,
    options: config.hygiene,
    observers,
    ...(config.retention === undefined
      ? {}
      : {
          retention: createRetention({
            repository: repositories.retention,
            clock: Date.now,
            logger,
            options: config.retention,
            beat: () => observers.heartbeat?.beat("hygiene"),
          }),
        }),
  });
  const segmentSizes = createSegmentSizesTask({
    segments: repositories.savedSegments,
    count: (tree, tagKinds, now) => repositories.segments.countSegment(tree, tagKinds, now),
    // The Painel's active / sleeping split over time, recorded by the same daily task.
    engagement: { recordDay: (now) => repositories.engagement.recordDay(now, config.sleepingDays ?? 30) },
    clock: Date.now,
    logger,
    observers,
  });
  const w = config.webhooks;
  const webhookClient = createWebhookClient({
    allowPrivateAddresses: w.allowPrivateAddresses,
    timeoutMs: w.timeoutMs,
    connectionsPerOrigin: WEBHOOK_IN_FLIGHT_PER_WEBHOOK,
    ...(w.caFile === undefined ? {} : { ca: readFileSync(w.caFile, "utf8") }),
  });
  const webhooks = createWebhookDispatcher({
    repository: repositories.webhooks,
    client: webhookClient,
    clock: Date.now,
    logger,
    pushesBusy: () => transport.stats().inFlight > 0,
    observers,
    options: {
      maxInFlight: WEBHOOK_IN_FLIGHT,
      maxInFlightPerWebhookWhilePushing: 1,
      maxInFlightPerWebhook: WEBHOOK_IN_FLIGHT_PER_WEBHOOK,
      pollMs: d.pollMs,
      // Held messages wait behind their webhook's cap: the lease covers every round of them.
      leaseMs: Math.max(d.leaseMs, (WEBHOOK_IN_FLIGHT / WEBHOOK_IN_FLIGHT_PER_WEBHOOK + 1) * w.timeoutMs * 2),
      retentionDays: w.retentionDays,
    },
  });
  const f = config.feeds ?? DEFAULT_FEED_RUNTIME_OPTIONS;
  const feedFetcher = createFeedFetcher({
    allowPrivateAddresses: f.allowPrivateAddresses,
    timeoutMs: f.timeoutMs,
    maxBytes: f.maxBytes,
    ...(f.caFile === undefined ? {} : { ca: readFileSync(f.caFile, "utf8") }),
  });
  const feeds = createFeedPoller({
    feeds: repositories.feeds,
    channels: repositories.channels,
    fetcher: feedFetcher,
    clock: Date.now,
    logger,
    jobSize: resolveDeliveryOptions(engineOptions).jobSize,
    publicUrl: config.publicUrl,
    defaultIcon: async () => {
      const organisation = await repositories.organisation.get();
      return organisation.logo === null || organisation.updatedAt === null ? null : organisationLogoUrl(config.publicUrl, organisation.updatedAt);
    },
    onSent: () => engine.wake(),
    observers,
    options: {
      tickMs: FEED_TICK_MS,
      // A poll is one fetch (redirects included) and a few small transactions.
      leaseMs: Math.max(d.leaseMs, 4 * f.timeoutMs),
      jitter: FEED_JITTER,
      maxItemsPerPoll: f.maxItemsPerPoll,
      concurrency: 4,
    },
  });
  // How long each loop may go without coming round before /readyz calls it stuck: its pause plus
  // the longest a round can legitimately take (a sub-batch whose pushes time out in waves, a
  // database that takes its connection timeout to answer), with room to spare.
  const hourly = 3_600_000;
  const maxAges: Record<LoopComponent, number> = {
    lanes: 2 * d.pollMs + 2 * Math.ceil(d.batchSize / d.maxInFlightPerOrigin) * d.pushTimeoutMs + 60_000,
    scheduler: 2 * d.pollMs + 60_000,
    hygiene: 2 * (config.hygiene.intervalMs ?? hourly) + 300_000,
    "segment-sizes": 2 * hourly + 300_000,
    webhooks: 2 * d.pollMs + 60_000,
  };
  const components = Object.keys(maxAges) as LoopComponent[];
  let closing: Promise<void> | undefined;
  return {
    engine,
    scheduler,
    hygiene,
    segmentSizes,
    webhooks,
    feeds,
    start() {
      for (const component of components) liveness?.expect(component, maxAges[component]);
      engine.start();
      scheduler.start();
      hygiene.start();
      segmentSizes.start();
      webhooks.start();
      feeds.start();
    },
    stats: () => ({ transport: transport.stats(), encryption: engine.encryptionStats() }),
    close: (options = { graceful: true }) =>
      (closing ??= (async () => {
        // Stopping on purpose is not being stuck.
        for (const component of components) liveness?.forget(component);
        await scheduler.stop();
        await feeds.stop();
        await hygiene.stop();
        await segmentSizes.stop();
        await Promise.all([engine.stop(options), webhooks.stop(options)]);
        await transport.close();
        await webhookClient.close();
        await feedFetcher.close();
      })()),
  };
}
