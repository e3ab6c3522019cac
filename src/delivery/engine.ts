import { createEncryptionPool, type EncryptionPool, type EncryptionPoolStats } from "../push/encryption-pool.js";
import { createPushSender } from "../push/sender.js";
import type { PushTransport } from "../push/transport.js";
import type { VapidSigner } from "../push/vapid.js";
import type { Notification } from "../store/notifications-repository.js";
import type { Repositories } from "../store/repositories.js";
import { resolveDeliveryOptions, type DeliveryOptions } from "./delivery-options.js";
import { createProgressEvents, type ProgressListener } from "./progress-events.js";
import { createBatchPusher } from "./push-batch.js";
import { createPushCounter, type DeliveryMetrics } from "./push-metrics.js";
import { createNotificationService, type NotificationService } from "./notification-service.js";
import type { LoopObservers } from "./loop-observers.js";
import { createWorker, type DeliveryLogger, type StopOptions } from "./worker.js";
import type { LocalTimeGate } from "./gates/local-time-gate.js";
import { createVapidKeyRing, type VapidKeyRing } from "./vapid-key-ring.js";
import { cachedSiteCaps, createEngagementGate } from "./gates/engagement-gate.js";
import type { EngagementRules } from "../store/delivery-gates-repository.js";

export interface DeliveryEngineDeps {
  /** With `sites`, a declarative push's links written as paths are made against the subscriber's site. */
  readonly repositories: Pick<Repositories, "notifications" | "deliveryQueue" | "idempotencyKeys"> & Partial<Pick<Repositories, "sites" | "siteKeys" | "deliveryGates">>;
  /** Owned by the caller, who closes it after `stop()`. */
  readonly transport: PushTransport;
  /** Signs pushes to subscriptions made with Sino's default key. */
  readonly vapid: VapidSigner;
  /**
   * The signers of the sites' own keys (each push is signed with its subscription's key). Default:
   * one over `repositories.siteKeys` when given; without either, every push uses `vapid`.
   */
  readonly keyRing?: VapidKeyRing;
  readonly options?: Partial<DeliveryOptions>;
  /** Epoch milliseconds; tests inject one to step over Retry-After and TTL without waiting. */
  readonly clock?: () => number;
  /** [0, 1) for the backoff jitter. */
  readonly random?: () => number;
  readonly logger?: DeliveryLogger;
  /** Lease owner prefix of this process's lanes (default `<host>:<pid>:<random>`). */
  readonly workerId?: string;
  /** The icon of a notification that sets none (the organisation's logo); none by default. */
  readonly defaultIcon?: () => Promise<string | null>;
  /** This process's metrics (pushes by push service and outcome); none by default. */
  readonly metrics?: DeliveryMetrics;
  /** The lanes' liveness beats and database outage reports. */
  readonly observers?: LoopObservers;
  /** SINO_PUBLIC_URL, for the Declarative Web Push form's absolute links; absent: classic pushes only. */
  readonly publicUrl?: string;
  /** local-time: holds marketing outside each subscriber's window (createLocalTimeGate); absent: nothing is held. */
  readonly localTime?: LocalTimeGate;
  /** gates: SINO_FREQUENCY_CAP / SINO_SLEEPING_DAYS, with `repositories.deliveryGates`; absent: no cap, nobody sleeps. */
  readonly engagement?: EngagementRules;
}

export interface DeliveryEngine extends NotificationService {
  /** This process's worker id (lease owner prefix). */
  readonly workerId: string;
  /** Calls `listener` with the send after each change made in this process. Returns the unsubscribe. */
  onProgress(id: number, listener: ProgressListener): () => void;
  /** Starts this process's worker lanes (without it, the engine only stores sends). */
  start(): void;
  /** Lets idle lanes look for due work now (e.g. after a test moved its clock). */
  wake(): void;
  /** Stops the lanes (see `StopOptions`) and the encryption threads. */
  stop(options?: StopOptions): Promise<void>;
  /** The encryption threads' load (metrics); undefined until the first push starts them. */
  encryptionStats(): EncryptionPoolStats | undefined;
}

/** How long the lanes keep the sites' origins (declarative links written as paths). */
const SITE_ORIGINS_TTL_MS = 60_000;

const SILENT: DeliveryLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The delivery engine of one process: the send API, progress events and the worker lanes. */
export function createDeliveryEngine(deps: DeliveryEngineDeps): DeliveryEngine {
  const options = resolveDeliveryOptions(deps.options);
  const clock = deps.clock ?? Date.now;
  const logger = deps.logger ?? SILENT;
  const { notifications, deliveryQueue: queue, idempotencyKeys } = deps.repositories;
  const events = createProgressEvents((error) => logger.warn({ err: error }, "progress listener failed"));
  const sender = createPushSender({
    vapid: deps.vapid,
    transport: deps.transport,
    retryPolicy: options.retryPolicy,
    clock,
    ...(deps.random === undefined ? {} : { random: deps.random }),
  });
  const siteKeys = deps.repositories.siteKeys;
  const keyRing = deps.keyRing ?? (siteKeys === undefined ? undefined : createVapidKeyRing({ defaultSigner: deps.vapid, keys: siteKeys }));
  let pool: EncryptionPool | undefined;
  let started = false;
  const countPushes = deps.metrics === undefined ? undefined : createPushCounter(deps.metrics);
  // Sites change rarely and a send to many reads them per batch: kept a minute.
  let siteOrigins: { readonly at: number; readonly origins: Promise<ReadonlyMap<number, string | null>> } | undefined;
  const sitesRepository = deps.repositories.sites;
  const readSiteOrigins = (sites: NonNullable<typeof sitesRepository>) => (fresh: boolean): Promise<ReadonlyMap<number, string | null>> => {
    const now = clock();
    if (fresh || siteOrigins === undefined || now - siteOrigins.at > SITE_ORIGINS_TTL_MS) {
      const origins = sites
        .listPlain().then((sites) => new Map(sites.map((site) => [site.id, site.origin] as const)));
      siteOrigins = { at: now, origins };
      // A failed read is not kept: the next batch asks again.
      origins.catch(() => (siteOrigins = undefined));
    }
    return siteOrigins.origins;
  };
  const worker = createWorker({
    queue,
    notifications,
    pusher: {
      async push(send, items, now, payloadOf) {
        // Threads start with the first push, not with the worker: an idle server spends nothing.
        if (pool === undefined && options.encryptionThreads > 0) pool = createEncryptionPool({ threads: options.encryptionThreads });
        const outcomes = await createBatchPusher(sender, pool, keyRing).push(send, items, now, payloadOf);
        countPushes?.(items, outcomes);
        return outcomes;
      },
    },
    options,
    clock,
    logger,
    onProgress: (send) => events.publish(send),
    ...(deps.publicUrl === undefined ? {} : { publicUrl: deps.publicUrl, ...(sitesRepository === undefined ? {} : { siteOrigins: readSiteOrigins(sitesRepository) }) }),
    ...(deps.workerId === undefined ? {} : { id: deps.workerId }),
    // gates: the engagement gate, the sites' own caps kept a minute like their origins.
    ...(deps.engagement === undefined || deps.repositories.deliveryGates === undefined
      ? {}
      : {
          engagementGate: createEngagementGate({
            repository: deps.repositories.deliveryGates,
            rules: deps.engagement,
            ...(sitesRepository === undefined ? {} : { siteCaps: cachedSiteCaps(() => sitesRepository.listPlain(), clock) }),
          }),
        }),
    ...(deps.observers === undefined ? {} : { observers: deps.observers }),
    ...(deps.localTime === undefined ? {} : { localTime: deps.localTime }),
  });
  const sends = createNotificationService({
    notifications,
    idempotencyKeys,
    clock,
    jobSize: options.jobSize,
    ...(deps.defaultIcon === undefined ? {} : { defaultIcon: deps.defaultIcon }),
    ...(deps.publicUrl === undefined ? {} : { publicUrl: deps.publicUrl }),
    onChange(send: Notification) {
      events.publish(send);
      if (send.status === "queued") worker.wake();
    },
  });

  return {
    ...sends,
    workerId: worker.id,
    onProgress: (id, listener) => events.subscribe(id, listener),
    start() {
      if (started) return;
      started = true;
      worker.start();
    },
    wake: () => worker.wake(),
    async stop(stopOptions = { graceful: true }) {
      if (!started) return;
      started = false;
      await worker.stop(stopOptions);
      await pool?.close();
      pool = undefined;
    },
    encryptionStats: () => pool?.stats(),
  };
}
