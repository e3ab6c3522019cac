import { Writable } from "node:stream";
import { pino, type Logger } from "pino";
import { describe, expect, it } from "vitest";
import { createDatabaseOutage } from "./database-outage.js";

/** A pino logger writing to an array, as the real one writes to stdout. */
function captured(): { lines: Record<string, unknown>[]; logger: Logger; next(): Promise<Record<string, unknown>> } {
  const lines: Record<string, unknown>[] = [];
  let waiting: ((line: Record<string, unknown>) => void) | undefined;
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString("utf8").split("\n")) {
        if (text === "") continue;
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        waiting?.(line);
      }
      done();
    },
  });
  return {
    lines,
    logger: pino({ level: "info" }, stream),
    next: () => new Promise((resolve) => (waiting = resolve)),
  };
}

const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });

describe("database outage log", () => {
  it("logs an outage once when it starts (warn, no stack) and once when it ends (info, with its length)", () => {
    const { lines, logger } = captured();
    let now = 10_000;
    const outage = createDatabaseOutage({ logger, ping: () => new Promise(() => undefined), clock: () => now });
    for (let i = 0; i < 20; i++) {
      expect(outage.failed(refused, i % 2 === 0 ? "scheduler" : "lanes")).toBe(true);
      now += 1_000;
    }
    expect(outage.since).toBe(10_000);
    outage.succeeded();
    outage.succeeded();
    outage.close();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ level: 40, source: "scheduler", cause: refused.message, msg: "database unavailable; everything waits and retries until it returns" });
    expect(lines[0]).not.toHaveProperty("err");
    expect(JSON.stringify(lines[0])).not.toContain("stack");
    expect(lines[1]).toMatchObject({ level: 30, outageMs: 20_000, msg: "database available again" });
    expect(outage.since).toBeUndefined();
  });

  it("leaves any other error to its caller, unlogged", () => {
    const { lines, logger } = captured();
    const outage = createDatabaseOutage({ logger, ping: () => Promise.resolve() });
    expect(outage.failed(new Error("syntax error at or near \"selec\""), "scheduler")).toBe(false);
    expect(outage.since).toBeUndefined();
    outage.close();
    expect(lines).toEqual([]);
  });

  it("notices the end by itself, pinging the database while nothing else runs", async () => {
    const { lines, logger, next } = captured();
    let pings = 0;
    const outage = createDatabaseOutage({
      logger,
      pingIntervalMs: 1,
      ping: () => (++pings < 3 ? Promise.reject(refused) : Promise.resolve()),
    });
    outage.failed(refused, "http");
    const ended = next();
    expect(lines).toHaveLength(1);
    expect(await ended).toMatchObject({ level: 30, msg: "database available again", outageMs: expect.any(Number) });
    expect(pings).toBe(3);
    outage.close();
  });

  it("starts a new outage after the previous one ended", () => {
    const { lines, logger } = captured();
    const outage = createDatabaseOutage({ logger, ping: () => new Promise(() => undefined) });
    outage.failed(refused, "lanes");
    outage.succeeded();
    outage.failed(refused, "lanes");
    outage.succeeded();
    outage.close();
    expect(lines.map((l) => l.level)).toEqual([40, 30, 40, 30]);
  });
});
