import { describe, expect, it } from "vitest";
import type { HygieneRepository } from "../store/hygiene-repository.js";
import { createHygieneTask } from "./hygiene-task.js";
import type { LoopComponent, LoopObservers } from "./loop-observers.js";
import { createScheduler, type SchedulerDeps } from "./scheduler.js";
import { createSegmentSizesTask } from "./segment-sizes-task.js";

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

/** What the loops told their observers, and what they logged themselves. */
function recording() {
  const beats: LoopComponent[] = [];
  const failures: { source: string; error: unknown }[] = [];
  let successes = 0;
  const errors: string[] = [];
  const observers: LoopObservers = {
    heartbeat: { beat: (component) => void beats.push(component) },
    outage: {
      failed: (error, source) => {
        failures.push({ source, error });
        return (error as { code?: string }).code === "ECONNREFUSED";
      },
      succeeded: () => void successes++,
    },
  };
  const logger = { info: () => undefined, warn: () => undefined, error: (_d: object, message: string) => void errors.push(message) };
  return { beats, failures, errors, observers, logger, successes: () => successes };
}

/** Resolves when `condition` holds (no timing: the test's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** A scheduler that looks every millisecond, starting its due sends with `startDue`. */
function schedulerReportingTo(r: ReturnType<typeof recording>, startDue: SchedulerDeps["notifications"]["startDue"]) {
  return createScheduler({ notifications: { startDue }, clock: Date.now, jobSize: 10, pollMs: 1, logger: r.logger, onStarted: () => undefined, observers: r.observers });
}

describe("background loops report to their observers", () => {
  it("the scheduler beats at each look, reports a database outage instead of logging it, and says when it answers again", async () => {
    const r = recording();
    let calls = 0;
    const scheduler = schedulerReportingTo(r, async () => (++calls <= 3 ? Promise.reject(refused) : []));
    scheduler.start();
    await until(() => calls >= 5);
    await scheduler.stop();
    expect(r.beats.filter((b) => b === "scheduler").length).toBeGreaterThanOrEqual(5);
    expect(r.failures.map((f) => f.source)).toEqual(["scheduler", "scheduler", "scheduler"]);
    expect(r.errors).toEqual([]);
    expect(r.successes()).toBeGreaterThanOrEqual(2);
  });

  it("the scheduler still logs an error that is not an outage", async () => {
    const r = recording();
    let calls = 0;
    const scheduler = schedulerReportingTo(r, async () => (++calls === 1 ? Promise.reject(new Error("column does not exist")) : []));
    scheduler.start();
    await until(() => calls >= 2);
    await scheduler.stop();
    expect(r.errors).toEqual(["scheduler failed to start due sends; retrying"]);
  });

  it("hygiene and segment sizes beat and report an outage to the tracker", async () => {
    const r = recording();
    const failing = () => Promise.reject(refused);
    const repository = { claimWarnings: failing, removeExpired: failing, clearFinishedTargets: failing } as unknown as HygieneRepository;
    const hygiene = createHygieneTask({
      repository,
      sender: { send: () => Promise.reject(new Error("unused")) },
      clock: Date.now,
      logger: r.logger,
      options: { expiryDays: 30, warningDays: 7 },
      observers: r.observers,
    });
    const sizes = createSegmentSizesTask({ segments: { unmeasuredOn: failing, recordSize: failing }, count: failing, clock: Date.now, logger: r.logger, observers: r.observers });
    hygiene.start();
    sizes.start();
    await until(() => r.failures.length >= 2);
    await hygiene.stop();
    await sizes.stop();
    expect(r.beats).toEqual(expect.arrayContaining(["hygiene", "segment-sizes"]));
    expect(r.failures.map((f) => f.source).sort()).toEqual(["hygiene", "segment-sizes"]);
    expect(r.errors).toEqual([]);
  });
});
