/**
 * Issue 21: "an outage of PostgreSQL logs 20 error-level stack traces in 20 s from the scheduler".
 * A real server (lanes, scheduler, hygiene, webhooks, HTTP) on PostgreSQL through a relay the test
 * cuts: the outage must be logged once when it starts and once when it ends, whatever keeps failing.
 */
import { Writable } from "node:stream";
import { afterEach, expect, it } from "vitest";
import { createTestDatabaseLocation } from "../../test/support/db.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { relayToPostgres, type TcpProxy } from "../../test/support/tcp-proxy.js";
import { createLogger } from "./logger.js";

let server: TestServer | undefined;
let proxy: TcpProxy | undefined;
let drop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await server?.close();
  await proxy?.close();
  await drop?.();
});

it("logs a PostgreSQL outage once when it starts and once when it ends, with no stack trace", { timeout: 60_000 }, async () => {
  const lines: Record<string, unknown>[] = [];
  const waiters: { match: (line: Record<string, unknown>) => boolean; resolve: () => void }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString("utf8").split("\n")) {
        if (text === "") continue;
        const line = JSON.parse(text) as Record<string, unknown>;
        lines.push(line);
        for (const waiter of waiters.filter((w) => w.match(line))) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      done();
    },
  });
  const seen = (match: (line: Record<string, unknown>) => boolean) =>
    lines.some(match) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ match, resolve }));
  /** Resolves once `count` lines match. */
  const seenTimes = async (count: number, match: (line: Record<string, unknown>) => boolean) => {
    while (lines.filter(match).length < count) await seen((line) => match(line) && lines.filter(match).length >= count);
  };

  const fresh = await createTestDatabaseLocation("postgres");
  drop = fresh.drop;
  const relay = await relayToPostgres(fresh.location.url);
  proxy = relay.proxy;
  const location = { ...fresh.location, url: relay.url };
  // debug: the quiet per-failure lines are there to count, at a level production does not log.
  server = await startTestServer({ location, logger: createLogger("debug", stream), env: { SINO_WORKER_POLL_MS: "20" } });

  const startedAt = lines.length;
  await proxy.stop();
  // The lanes and the scheduler keep failing, each time round (every 20 ms), and so do requests.
  const still = (line: Record<string, unknown>) => line.msg === "database still unavailable";
  expect((await fetch(`${server.url}/api/v1/notices`)).status).toBe(503);
  await seenTimes(20, still);
  const sources = new Set(lines.filter(still).map((l) => l.source));
  expect(sources.has("lanes") && sources.has("scheduler")).toBe(true);

  await proxy.start();
  await seen((line) => line.msg === "database available again");
  const during = lines.slice(startedAt);
  const warnings = during.filter((l) => (l.level as number) >= 40);
  expect(warnings.map((w) => w.msg)).toEqual(["database unavailable; everything waits and retries until it returns"]);
  expect(warnings[0]).toMatchObject({ level: 40, msg: "database unavailable; everything waits and retries until it returns" });
  expect(during.some((l) => "err" in l || JSON.stringify(l).includes('"stack"'))).toBe(false);
  const ended = during.filter((l) => l.msg === "database available again");
  expect(ended).toHaveLength(1);
  expect(ended[0]).toMatchObject({ level: 30, outageMs: expect.any(Number) });
  expect(ended[0]!.outageMs as number).toBeGreaterThan(0);
});
