import type { Notification, NotificationsRepository } from "../store/notifications-repository.js";
import type { LoopObservers } from "./loop-observers.js";
import type { DeliveryLogger } from "./worker.js";

export interface SchedulerDeps {
  readonly notifications: Pick<NotificationsRepository, "startDue">;
  readonly clock: () => number;
  /** Subscription ids per range job, as for sends made now. */
  readonly jobSize: number;
  /** How often to look for due notifications: a notification goes out at most this long after its time. */
  readonly pollMs: number;
  readonly logger: DeliveryLogger;
  /** Told about each notification this process started (e.g. to wake the worker lanes at once). */
  readonly onStarted: (send: Notification) => void;
  /** Sends started per look, so one look cannot hold the loop for long. */
  readonly batch?: number;
  /** Beats `scheduler` at each look; database outages are logged once. */
  readonly observers?: LoopObservers;
}

export interface Scheduler {
  start(): void;
  /** Looks now instead of at the next tick (tests; a notification scheduled a moment ahead). */
  wake(): void;
  /** Waits for a look in progress, then stops. */
  stop(): Promise<void>;
}

/**
 * Turns scheduled notifications into queued ones when their time comes. It runs in every process that
 * runs workers: nothing is held in memory, so a restart loses nothing (the row says `scheduled`
 * until one process's conditional UPDATE claims it, which only one can — see `startDue`).
 */
export function createScheduler(deps: SchedulerDeps): Scheduler {
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let again = false;

  async function look(): Promise<void> {
    deps.observers?.heartbeat?.beat("scheduler");
    try {
      for (;;) {
        again = false;
        const started = await deps.notifications.startDue(deps.clock(), { jobSize: deps.jobSize, limit: deps.batch ?? 50 });
        for (const send of started) {
          deps.logger.info({ send: send.id, queued: send.counts.queued }, "scheduled send started");
          deps.onStarted(send);
        }
        if (!again && started.length < (deps.batch ?? 50)) break;
      }
      deps.observers?.outage?.succeeded();
    } catch (error) {
      // A database hiccup: the notifications stay scheduled and the next tick tries again. An outage is
      // logged once when it starts and once when it ends, not at every tick.
      if (deps.observers?.outage?.failed(error, "scheduler") !== true) deps.logger.error({ err: error }, "scheduler failed to start due sends; retrying");
    }
  }

  function tick(): void {
    if (!running) return;
    if (looking !== undefined) {
      again = true;
      return;
    }
    looking = look().finally(() => {
      looking = undefined;
      if (running) {
        clearTimeout(timer);
        timer = setTimeout(tick, deps.pollMs);
      }
    });
  }

  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    wake() {
      if (!running) return;
      clearTimeout(timer);
      tick();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await looking;
    },
  };
}
