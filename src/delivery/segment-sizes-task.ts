import type { SavedSegment, SavedSegmentsRepository, SegmentSize } from "../store/saved-segments-repository.js";
import { utcDay } from "../store/saved-segments-repository.js";
import type { SegmentNode, SegmentTagKinds } from "../shared/segments/tree.js";
import type { LoopObservers } from "./loop-observers.js";
import type { DeliveryLogger } from "./worker.js";
import { createPeriodicTask } from "./periodic-task.js";

/** Counts an expression's audience now (src/store/segments-repository.ts `countSegment`). */
export type SegmentCounter = (tree: SegmentNode, tagKinds: SegmentTagKinds, now: number) => Promise<{ subscriptions: number; people: number }>;

/** Measures a saved segment now and keeps the measure as its size of the day (UTC). */
export async function measureSegment(deps: { segments: Pick<SavedSegmentsRepository, "recordSize">; count: SegmentCounter }, segment: SavedSegment, now: number): Promise<SegmentSize> {
  const counted = await deps.count(segment.tree, segment.tagKinds, now);
  const size = { ...counted, measuredAt: now };
  await deps.segments.recordSize(segment.id, utcDay(now), size);
  return size;
}

export interface SegmentSizesTask {
  /** One pass: measures every saved segment with no size today yet. Returns how many it measured. */
  perform(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export interface SegmentSizesTaskDeps {
  readonly segments: Pick<SavedSegmentsRepository, "unmeasuredOn" | "recordSize">;
  readonly count: SegmentCounter;
  /** The day's active / sleeping split (engagement_daily), recorded at each look; a later look the same day replaces it. */
  readonly engagement?: { recordDay(now: number): Promise<number> };
  readonly clock: () => number;
  readonly logger: DeliveryLogger;
  /** How often to look, in ms (default: hourly; each segment is measured once a day). */
  readonly intervalMs?: number;
  /** Beats `segment-sizes` at each look and batch; database outages are logged once. */
  readonly observers?: LoopObservers;
}

/** Segments measured per look (a look repeats while there is more). */
const BATCH = 50;

/**
 * The daily size of every saved segment, for its size-over-time chart: runs in every worker
 * process beside hygiene. Two processes may measure the same segment on the same day; the upsert
 * keeps one row, the later measure.
 */
export function createSegmentSizesTask(deps: SegmentSizesTaskDeps): SegmentSizesTask {
  const intervalMs = deps.intervalMs ?? 3_600_000;

  async function perform(): Promise<number> {
    if (deps.engagement !== undefined) await recordEngagement(deps.engagement);
    let measured = 0;
    const failed = new Set<number>();
    for (;;) {
      deps.observers?.heartbeat?.beat("segment-sizes");
      const now = deps.clock();
      const due = (await deps.segments.unmeasuredOn(utcDay(now), BATCH + failed.size)).filter((segment) => !failed.has(segment.id));
      for (const segment of due) {
        try {
          await measureSegment({ segments: deps.segments, count: deps.count }, segment, deps.clock());
          measured++;
        } catch (error) {
          // One segment too slow to count (segment_timeout) must not keep the others unmeasured.
          failed.add(segment.id);
          deps.logger.warn({ segment: segment.id, cause: error instanceof Error ? error.message : String(error) }, "segment size not measured; trying again later");
        }
      }
      if (due.length < BATCH) break;
    }
    if (measured > 0) deps.logger.info({ measured }, "segment sizes measured");
    return measured;
  }

  /** Its own failure is logged and does not keep the segments unmeasured. */
  async function recordEngagement(engagement: { recordDay(now: number): Promise<number> }): Promise<void> {
    try {
      await engagement.recordDay(deps.clock());
    } catch (error) {
      // A database outage is the outage observer's to log, once; anything else is this snapshot's.
      if (deps.observers?.outage?.failed(error, "segment-sizes") === true) return;
      deps.logger.warn({ cause: error instanceof Error ? error.message : String(error) }, "engagement snapshot not recorded; trying again later");
    }
  }

  const task = createPeriodicTask({ component: "segment-sizes", perform, intervalMs, failureMessage: "segment sizes failed; retrying later", logger: deps.logger, observers: deps.observers });
  return { perform, start: task.start, stop: task.stop };
}
