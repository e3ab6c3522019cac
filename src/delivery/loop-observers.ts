import type { DatabaseOutage } from "../store/database-outage.js";

/**
 * What a background loop tells the rest of its process: that it came round again (the liveness
 * registry behind `/readyz`, src/server/health/liveness.ts) and that the database failed or
 * answered (one log line when an outage starts and one when it ends, src/store/database-outage.ts).
 * Both optional: a test's engine runs without them.
 */
export interface LoopObservers {
  readonly heartbeat?: { beat(component: LoopComponent): void };
  readonly outage?: Pick<DatabaseOutage, "failed" | "succeeded">;
}

/** The names loops beat under (also the `component` of `/readyz`'s answer). */
export type LoopComponent = "lanes" | "scheduler" | "hygiene" | "segment-sizes" | "webhooks";

/** The registry's side the delivery runtime uses to say which loops this process runs. */
export interface LivenessRegistry {
  expect(component: LoopComponent, maxAgeMs: number): void;
  beat(component: LoopComponent): void;
  forget(component: LoopComponent): void;
}

/** What the process that wires a delivery runtime hands it (all optional: tests run without). */
export interface RuntimeObservers {
  readonly liveness?: LivenessRegistry;
  readonly outage?: Pick<DatabaseOutage, "failed" | "succeeded">;
}
