/**
 * Which of this process's background loops are still turning: each loop (the delivery lanes, the
 * scheduler, hygiene, the webhook dispatcher) calls `beat(component)` every time round, whether
 * its last round succeeded or not — a loop that waits out a database outage is alive, a loop stuck
 * on a promise that never settles is not. `/readyz` and the metrics read the same object. (Delivery
 * code sees it as src/delivery/loop-observers.ts's `LivenessRegistry`: it cannot import the server.)
 */
export interface Liveness {
  /**
   * Says a component must beat at least every `maxAgeMs` from now on (a process registers only
   * the loops it runs: `sino start` with SINO_WORKER_EMBEDDED=false has none).
   */
  expect(component: string, maxAgeMs: number): void;
  /** The component's loop came round again. */
  beat(component: string): void;
  /** Forgets a component (its loop stopped on purpose, e.g. while the process shuts down). */
  forget(component: string): void;
  /** Every expected component at `now` (epoch ms), in the order they were expected. */
  status(now: number): LivenessStatus;
}

export interface ComponentStatus {
  readonly component: string;
  /** Epoch ms of its last beat (or of `expect`, before the first beat). */
  readonly lastBeat: number;
  readonly ageMs: number;
  readonly maxAgeMs: number;
  readonly alive: boolean;
}

export interface LivenessStatus {
  /** Every expected component beat recently enough. */
  readonly alive: boolean;
  readonly components: readonly ComponentStatus[];
}

export function createLiveness(options: { clock?: () => number } = {}): Liveness {
  const clock = options.clock ?? Date.now;
  const components = new Map<string, { lastBeat: number; maxAgeMs: number }>();
  return {
    expect(component, maxAgeMs) {
      if (!(maxAgeMs > 0)) throw new RangeError(`maxAgeMs must be positive: ${maxAgeMs}`);
      const known = components.get(component);
      components.set(component, { lastBeat: known?.lastBeat ?? clock(), maxAgeMs });
    },
    beat(component) {
      const known = components.get(component);
      // A beat from a loop nobody expects (a test's engine, a task run by hand) is not an error.
      if (known !== undefined) known.lastBeat = clock();
    },
    forget(component) {
      components.delete(component);
    },
    status(now) {
      const list = [...components].map(([component, { lastBeat, maxAgeMs }]): ComponentStatus => {
        const ageMs = Math.max(0, now - lastBeat);
        return { component, lastBeat, ageMs, maxAgeMs, alive: ageMs <= maxAgeMs };
      });
      return { alive: list.every((c) => c.alive), components: list };
    },
  };
}
