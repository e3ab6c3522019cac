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
  // A head index instead of Array#shift: a fan-out can queue tens of thousands here.
  let waiters: Array<() => void> = [];
  let head = 0;
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
      if (head < waiters.length) {
        const next = waiters[head]!;
        head++;
        if (head > 1024 && head * 2 > waiters.length) {
          waiters = waiters.slice(head);
          head = 0;
        }
        next(); // the slot passes straight to the next waiter
      } else {
        inFlight--;
      }
    },
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length - head;
    },
  };
}
