import { createFifoQueue } from "./fifo-queue.js";

/**
 * A counting semaphore with a FIFO queue: at most `limit` requests in flight to one push-service
 * origin, the rest wait here (in order) rather than pile up inside the HTTP client.
 */
export interface OriginGate {
  acquire(): Promise<void> | undefined;
  release(): void;
  readonly inFlight: number;
  readonly waiting: number;
}

export function createOriginGate(limit: number): OriginGate {
  let inFlight = 0;
  const waiters = createFifoQueue<() => void>();
  return {
    /** Resolves when a slot is held; `undefined` (no promise, no tick) when one was free at once. */
    acquire() {
      if (inFlight < limit) {
        inFlight++;
        return undefined;
      }
      return new Promise<void>((resolve) => waiters.push(resolve));
    },
    release() {
      const next = waiters.shift();
      if (next !== undefined) next(); // the slot passes straight to the next waiter
      else inFlight--;
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.size;
    },
  };
}
