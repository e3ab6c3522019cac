import { createEncryptionPool, type EncryptionPool } from "../push/encryption-pool.js";
import { createPushSender } from "../push/sender.js";
import type { PushTransport } from "../push/transport.js";
import type { VapidSigner } from "../push/vapid.js";
import type { Notification } from "../store/notifications-repository.js";
import type { Repositories } from "../store/repositories.js";
import { resolveDeliveryOptions, type DeliveryOptions } from "./delivery-options.js";
import { createProgressEvents, type ProgressListener } from "./progress-events.js";
import { createBatchPusher } from "./push-batch.js";
import { createSendService, type SendService } from "./send-service.js";
import { createWorker, type DeliveryLogger, type StopOptions } from "./worker.js";

export interface DeliveryEngineDeps {
  readonly repositories: Pick<Repositories, "notifications" | "deliveryQueue" | "idempotencyKeys">;
  /** Owned by the caller, who closes it after `stop()`. */
  readonly transport: PushTransport;
  readonly vapid: VapidSigner;
  readonly options?: Partial<DeliveryOptions>;
  /** Epoch milliseconds; tests inject one to step over Retry-After and TTL without waiting. */
  readonly clock?: () => number;
  /** [0, 1) for the backoff jitter. */
  readonly random?: () => number;
  readonly logger?: DeliveryLogger;
  /** Lease owner prefix of this process's lanes (default `<host>:<pid>:<random>`). */
  readonly workerId?: string;
  /** The icon of a send that sets none (the organisation's logo); none by default. */
  readonly defaultIcon?: () => Promise<string | null>;
  /** SINO_PUBLIC_URL, for the Declarative Web Push form's absolute links; absent: classic pushes only. */
  readonly publicUrl?: string;
}

export interface DeliveryEngine extends SendService {
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
}

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
  let pool: EncryptionPool | undefined;
  let started = false;
  const worker = createWorker({
    queue,
    notifications,
    pusher: {
      push(send, items, now, payloadOf) {
        // Threads start with the first push, not with the worker: an idle server spends nothing.
        if (pool === undefined && options.encryptionThreads > 0) pool = createEncryptionPool({ threads: options.encryptionThreads });
        return createBatchPusher(sender, pool).push(send, items, now, payloadOf);
      },
    },
    options,
    clock,
    logger,
    onProgress: (send) => events.publish(send),
    ...(deps.publicUrl === undefined ? {} : { publicUrl: deps.publicUrl }),
    ...(deps.workerId === undefined ? {} : { id: deps.workerId }),
  });
  const sends = createSendService({
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
  };
}
