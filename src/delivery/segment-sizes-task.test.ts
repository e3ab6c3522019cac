import { describe, expect, it } from "vitest";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import type { SegmentNode } from "../shared/segments/tree.js";
import { createSavedSegmentsRepository, type SavedSegmentsRepository } from "../store/saved-segments-repository.js";
import { createSegmentSizesTask, type SegmentCounter } from "./segment-sizes-task.js";

const DAY = 86_400_000;
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };
const VIP: SegmentNode = { tag: "vip", op: "exists" };
const SLOW: SegmentNode = { tag: "lento", op: "exists" };

for (const dialect of DIALECTS) {
  describe(`saved segments' daily sizes on ${dialect}`, () => {
    let database: TestDatabase;
    let segments: SavedSegmentsRepository;
    let now = Date.parse("2026-03-10T12:00:00Z");

    useTestDatabase(dialect, (created) => {
      database = created;
      segments = createSavedSegmentsRepository(database);
    });

    /** Counts `vip` as 10 subscriptions of 4 people plus a day's number; `lento` times out. */
    const count: SegmentCounter = (tree) => {
      if ("tag" in tree && tree.tag === "lento") return Promise.reject(new Error("segment_timeout"));
      return Promise.resolve({ subscriptions: 10 + Math.floor(now / DAY) % 7, people: 4 });
    };

    it("measures each segment once a UTC day, upserting its row, and a segment that fails leaves the others measured", async () => {
      const task = createSegmentSizesTask({ segments, count, clock: () => now, logger: SILENT });
      const vip = await segments.create({ name: "VIP", description: null, tree: VIP, tagKinds: "trusted" }, now);
      const slow = await segments.create({ name: "Lento", description: null, tree: SLOW, tagKinds: "trusted" }, now);
      if (typeof vip === "string" || typeof slow === "string") throw new Error("unexpected");
      expect(await task.perform()).toBe(1);
      expect(await task.perform()).toBe(0);
      now += DAY;
      expect(await task.perform()).toBe(1);
      const history = await segments.history(vip.id, "2026-03-01");
      expect(history.map((row) => row.day)).toEqual(["2026-03-10", "2026-03-11"]);
      expect((await segments.findById(vip.id))?.size).toMatchObject({ people: 4, measuredAt: now });
      expect(await segments.history(slow.id, "2026-03-01")).toEqual([]);
      // A second measure on the same day replaces the first.
      await segments.recordSize(vip.id, "2026-03-11", { subscriptions: 99, people: 9, measuredAt: now + 1 });
      expect((await segments.history(vip.id, "2026-03-11"))).toEqual([{ day: "2026-03-11", subscriptions: 99, people: 9 }]);
      expect(await segments.remove(vip.id)).toBe("deleted");
      expect(await segments.history(vip.id, "2026-03-01")).toEqual([]);
    });
  });
}
