import { readFileSync } from "node:fs";
import type { DeliveryEngine } from "../delivery/engine.js";
import { createDeliveryEngine } from "../delivery/engine.js";
import { resolveDeliveryOptions } from "../delivery/delivery-options.js";
import { createHygieneTask, type HygieneTask } from "../delivery/hygiene-task.js";
import { createScheduler, type Scheduler } from "../delivery/scheduler.js";
import type { DeliveryLogger } from "../delivery/worker.js";
import { createPushSender } from "../push/sender.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import type { VapidKeys } from "../push/vapid-keys.js";
import type { Database } from "../store/database.js";
import { createHygieneRepository } from "../store/hygiene-repository.js";
import { createNotificationsRepository } from "../store/notifications-repository.js";
import type { Config } from "./config.js";

export interface DeliveryRuntime {
  readonly engine: DeliveryEngine;
  /** Starts scheduled sends when due; runs wherever the worker lanes run. */
  readonly scheduler: Scheduler;
  /** Warns, then removes, subscriptions whose browser has not come back (SINO_SUBSCRIPTION_*). */
  readonly hygiene: HygieneTask;
  /** Starts the worker lanes and the scheduler. */
  start(): void;
  /** Stops the lanes (graceful: in-flight sub-batches finish and are checkpointed), then the connections. */
  close(options?: { graceful: boolean }): Promise<void>;
}

/** The delivery engine wired from the configuration: transport, VAPID signer, options. */
export function createDeliveryRuntime(config: Config, database: Database, vapidKeys: VapidKeys, logger: DeliveryLogger): DeliveryRuntime {
  const d = config.delivery;
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
  const engine = createDeliveryEngine({
    database,
    transport,
    vapid,
    logger,
    options: engineOptions,
  });
  const scheduler = createScheduler({
    notifications: createNotificationsRepository(database),
    clock: Date.now,
    jobSize: resolveDeliveryOptions(engineOptions).jobSize,
    pollMs: d.pollMs,
    logger,
    onStarted: () => engine.wake(),
  });
  const hygiene = createHygieneTask({
    repository: createHygieneRepository(database),
    sender: createPushSender({ vapid, transport }),
    clock: Date.now,
    logger,
    options: config.hygiene,
  });
  let closing: Promise<void> | undefined;
  return {
    engine,
    scheduler,
    hygiene,
    start() {
      engine.start();
      scheduler.start();
      hygiene.start();
    },
    close: (options = { graceful: true }) =>
      (closing ??= (async () => {
        await scheduler.stop();
        await hygiene.stop();
        await engine.stop(options);
        await transport.close();
      })()),
  };
}
