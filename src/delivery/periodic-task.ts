import type { LoopComponent, LoopObservers } from "./loop-observers.js";
import type { DeliveryLogger } from "./worker.js";

export interface PeriodicTaskOptions {
  /** Its name for the outage observer (the loop it beats under). */
  readonly component: LoopComponent;
  /** One round of the work; its result is not used. */
  readonly perform: () => Promise<unknown>;
  /** The pause between the end of one round and the start of the next, in ms. */
  readonly intervalMs: number;
  /** Logged (error level) when a round fails for another reason than a database outage. */
  readonly failureMessage: string;
  readonly logger: DeliveryLogger;
  readonly observers?: LoopObservers;
}

export interface PeriodicTask {
  /** The first round at once, then one `intervalMs` after each round ends. */
  start(): void;
  /** No round starts after this; resolves when the round in progress ends. */
  stop(): Promise<void>;
}

/**
 * A background task every worker process runs (hygiene, segment sizes): rounds never overlap, and
 * a failed round does not stop the next. A database outage is the outage observer's to log, once
 * when it starts and once when it ends; anything else is logged here, once per failed round.
 */
export function createPeriodicTask(options: PeriodicTaskOptions): PeriodicTask {
  const { observers, logger } = options;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let started = false;

  function round(): void {
    running = options
      .perform()
      .then(
        () => observers?.outage?.succeeded(),
        (error: unknown) => {
          if (observers?.outage?.failed(error, options.component) !== true) logger.error({ err: error }, options.failureMessage);
        },
      )
      .finally(schedule);
  }

  function schedule(): void {
    if (!started) return;
    timer = setTimeout(round, options.intervalMs);
    timer.unref();
  }

  return {
    start() {
      if (started) return;
      started = true;
      round();
    },
    async stop() {
      started = false;
      clearTimeout(timer);
      await running;
    },
  };
}
