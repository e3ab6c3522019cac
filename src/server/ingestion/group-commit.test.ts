import { describe, expect, it } from "vitest";
import { createGroupCommit, QueueFullError, WriterClosedError } from "./group-commit.js";

/** A write that holds each transaction open until the test lets it go, recording every batch. */
function gatedWriter() {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  const started: Array<() => void> = [];
  return {
    batches,
    async write(items: readonly number[]): Promise<string[]> {
      batches.push([...items]);
      const gate = new Promise<void>((resolve) => gates.push(resolve));
      for (const wake of started.splice(0)) wake();
      await gate;
      if (items.includes(-1)) throw new Error("bad row");
      return items.map((n) => `ok ${n}`);
    },
    /** Resolves once `count` batches have started (the last ones held at their gates). */
    async untilBatches(count: number): Promise<void> {
      while (batches.length < count) await new Promise<void>((resolve) => started.push(resolve));
    },
    releaseAll(): void {
      for (const open of gates.splice(0)) open();
    },
  };
}

const settled = <T>(promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }));

describe("group commit", () => {
  const writerOf = (writer: ReturnType<typeof gatedWriter>) => (items: readonly number[]) => writer.write(items);

  it("writes the requests that arrive while a transaction runs together, in one next transaction", async () => {
    const writer = gatedWriter();
    const commit = createGroupCommit({ write: writerOf(writer), maxBatch: 100, capacity: 1000 });
    const first = commit.submit(0);
    await writer.untilBatches(1);
    const rest = Array.from({ length: 20 }, (_, i) => commit.submit(i + 1));
    let answered = 0;
    for (const p of rest) void p.then(() => answered++);
    writer.releaseAll();
    expect(await first).toBe("ok 0");
    await writer.untilBatches(2);
    // The 20 wait behind their own transaction: nothing is answered before it commits.
    expect(answered).toBe(0);
    writer.releaseAll();
    expect(await Promise.all(rest)).toEqual(rest.map((_, i) => `ok ${i + 1}`));
    expect(writer.batches).toEqual([[0], Array.from({ length: 20 }, (_, i) => i + 1)]);
    expect(commit.stats()).toEqual({ batches: 2, items: 21, pending: 0 });
  });

  it("takes at most maxBatch items per transaction", async () => {
    const writer = gatedWriter();
    const commit = createGroupCommit({ write: writerOf(writer), maxBatch: 3, capacity: 1000 });
    const all = Array.from({ length: 7 }, (_, i) => commit.submit(i));
    for (let i = 1; i <= 3; i++) {
      await writer.untilBatches(i);
      writer.releaseAll();
    }
    await Promise.all(all);
    expect(writer.batches).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
  });

  it("fails only the bad row's request, with its own error, when a batch rolls back", async () => {
    const writer = gatedWriter();
    const commit = createGroupCommit({ write: writerOf(writer), maxBatch: 100, capacity: 1000 });
    const results = [1, -1, 2].map((n) => settled(commit.submit(n)));
    // The batch, then each row alone.
    for (let i = 1; i <= 4; i++) {
      await writer.untilBatches(i);
      writer.releaseAll();
    }
    const [one, bad, two] = await Promise.all(results);
    expect(one).toEqual({ value: "ok 1" });
    expect(two).toEqual({ value: "ok 2" });
    expect((bad as { error: Error }).error.message).toBe("bad row");
    expect(writer.batches).toEqual([[1, -1, 2], [1], [-1], [2]]);
    expect(commit.stats()).toMatchObject({ batches: 2, items: 2 });
  });

  it("refuses past its capacity at once (backpressure), and takes again once written", async () => {
    const writer = gatedWriter();
    const commit = createGroupCommit({ write: writerOf(writer), maxBatch: 100, capacity: 2 });
    const a = commit.submit(1);
    const b = commit.submit(2);
    await expect(commit.submit(3)).rejects.toBeInstanceOf(QueueFullError);
    await writer.untilBatches(1);
    writer.releaseAll();
    expect(await Promise.all([a, b])).toEqual(["ok 1", "ok 2"]);
    const c = commit.submit(4);
    await writer.untilBatches(2);
    writer.releaseAll();
    expect(await c).toBe("ok 4");
  });

  it("on close, writes everything taken, then refuses", async () => {
    const writer = gatedWriter();
    const commit = createGroupCommit({ write: writerOf(writer), maxBatch: 2, capacity: 100 });
    const taken = [1, 2, 3].map((n) => commit.submit(n));
    let closed = false;
    const closing = commit.close().then(() => (closed = true));
    await expect(commit.submit(4)).rejects.toBeInstanceOf(WriterClosedError);
    await writer.untilBatches(1);
    writer.releaseAll();
    await writer.untilBatches(2);
    expect(closed).toBe(false);
    writer.releaseAll();
    await closing;
    expect(await Promise.all(taken)).toEqual(["ok 1", "ok 2", "ok 3"]);
  });

  it("writes up to `concurrency` transactions at once", async () => {
    const writer = gatedWriter();
    const commit = createGroupCommit({ write: writerOf(writer), maxBatch: 2, capacity: 100, concurrency: 2 });
    const all = [1, 2, 3, 4, 5].map((n) => commit.submit(n));
    await writer.untilBatches(2);
    // Both transactions are open together, before either commits.
    expect(writer.batches).toEqual([[1, 2], [3, 4]]);
    writer.releaseAll();
    await writer.untilBatches(3);
    writer.releaseAll();
    expect(await Promise.all(all)).toEqual(["ok 1", "ok 2", "ok 3", "ok 4", "ok 5"]);
  });
});
