import { describe, expect, it } from "vitest";
import { createFifoQueue } from "./fifo-queue.js";

describe("createFifoQueue", () => {
  it("gives items back in the order they came, across compactions", () => {
    const queue = createFifoQueue<number>();
    const out: number[] = [];
    let next = 0;
    // Interleaved, so the consumed front passes the compaction threshold several times.
    for (let round = 0; round < 50; round++) {
      for (let i = 0; i < 100; i++) queue.push(next++);
      for (let i = 0; i < 80; i++) out.push(queue.shift()!);
    }
    expect(queue.size).toBe(next - out.length);
    while (queue.size > 0) out.push(queue.shift()!);
    expect(out).toEqual(Array.from({ length: next }, (_, i) => i));
  });

  it("peeks without removing, and answers undefined when empty", () => {
    const queue = createFifoQueue<string>();
    expect(queue.peek()).toBeUndefined();
    expect(queue.shift()).toBeUndefined();
    queue.push("a");
    queue.push("b");
    expect(queue.peek()).toBe("a");
    expect(queue.size).toBe(2);
    expect(queue.shift()).toBe("a");
    expect(queue.shift()).toBe("b");
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });
});
