/**
 * Issue 10, "a lost PostgreSQL connection kills the process": real `sino start` and `sino worker`
 * processes on real PostgreSQL, through a TCP relay the test can cut (the database is away) and
 * with their backends terminated by `pg_terminate_backend` (found by the test's own
 * application_name). The processes must stay up, the API must answer 503 `database_unavailable`
 * while the database is away, and every notification must complete once it is back.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { fakePushWorkerEnv } from "../../test/support/worker-env.js";
import { testDatabaseUrl } from "../../test/support/postgres.js";
import { createTcpProxy, type TcpProxy } from "../../test/support/tcp-proxy.js";
import { createNotificationService, type NotificationService } from "../delivery/notification-service.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { ptBR } from "../shared/i18n/catalog.js";
import { createRepositories } from "../store/repositories.js";

const LANES = 2;
const BATCH = 100;
const SUBSCRIBERS = 2000;
const vapidKeys = generateVapidKeys();

interface SinoProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  readonly lines: string[];
  /** Resolves with the first output line (stdout: logs and messages) that `match` accepts. */
  waitForLine(match: (line: string) => boolean): Promise<string>;
  readonly alive: boolean;
}

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 20 });
});
afterAll(async () => {
  await fake.close();
});

describe("Sino processes losing PostgreSQL", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let sends: NotificationService;
  let applicationName: string;
  const processes: SinoProcess[] = [];

  function spawnSino(command: "start" | "worker", env: Record<string, string> = {}): SinoProcess {
    const target = new URL(testDatabaseUrl());
    target.host = `127.0.0.1:${proxy.port}`;
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", command], {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: target.toString(),
        SINO_DATABASE_SCHEMA: database.location.schema!,
        SINO_DATABASE_POOL_SIZE: "4",
        // node-postgres names its connections after PGAPPNAME: the test terminates only these.
        PGAPPNAME: applicationName,
        SINO_PORT: "0",
        SINO_HOST: "127.0.0.1",
        SINO_WEB_DIR: "/nonexistent",
        ...fakePushWorkerEnv(vapidKeys, { lanes: LANES, batch: BATCH }),
        // The end of an outage is an info line.
        SINO_LOG_LEVEL: "info",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
    const onLine = (line: string) => {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    };
    createInterface({ input: child.stdout! }).on("line", onLine);
    createInterface({ input: child.stderr! }).on("line", onLine);
    const exited = once(child, "exit").then(([code]) => code as number | null);
    const sino: SinoProcess = {
      child,
      exited,
      lines,
      waitForLine(match) {
        const seen = lines.find(match);
        if (seen !== undefined) return Promise.resolve(seen);
        return new Promise((resolve, reject) => {
          waiters.push({ match, resolve });
          void exited.then((code) => reject(new Error(`sino ${command} exited (${code}):\n${lines.join("\n")}`)));
        });
      },
      get alive() {
        return child.exitCode === null && child.signalCode === null;
      },
    };
    processes.push(sino);
    return sino;
  }

  /** The URL `sino start` printed ("Sino ouvindo em http://…"). */
  async function started(sino: SinoProcess): Promise<string> {
    const line = await sino.waitForLine((l) => l.startsWith("Sino ouvindo em "));
    return line.slice("Sino ouvindo em ".length).trim();
  }

  /** pg_terminate_backend on every connection the Sino processes hold; how many there were. */
  async function terminateSinoBackends(): Promise<number> {
    const admin = new pg.Client({ connectionString: testDatabaseUrl() });
    await admin.connect();
    try {
      // Two statements, not one WHERE: PostgreSQL may evaluate pg_terminate_backend before the
      // name filter, and a shared server has other users' connections.
      const pids = (await admin.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [applicationName])).rows.map((r) => r.pid);
      const result = await admin.query<{ ok: boolean }>("select pg_terminate_backend(pid) as ok from unnest($1::int[]) as pid", [pids]);
      return result.rows.filter((r) => r.ok).length;
    } finally {
      await admin.end();
    }
  }

  beforeEach(async () => {
    fake.reset();
    applicationName = `sino_fault_${randomBytes(4).toString("hex")}`;
    database = await createTestDatabase("postgres");
    proxy = await createTcpProxy({ host: new URL(testDatabaseUrl()).hostname, port: Number(new URL(testDatabaseUrl()).port || 5432) });
    const { notifications, idempotencyKeys } = createRepositories(database);
    sends = createNotificationService({ notifications, idempotencyKeys, clock: Date.now, jobSize: 500, onChange: () => undefined });
  });
  afterEach(async () => {
    for (const { child, exited } of processes.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    }
    await proxy.close();
    await database.cleanup();
  });

  it("stays up through terminated backends and a database outage, answers 503 meanwhile, and completes every send", async () => {
    const ids = await seedSubscriptions(database, fake, SUBSCRIBERS);
    fake.setBehaviour({ latencyMs: 40 });
    const server = spawnSino("start");
    const worker = spawnSino("worker");
    const url = await started(server);
    await worker.waitForLine((l) => l.startsWith("Motor de entrega do Sino"));
    let faults = 0;

    // Mid-send: every backend of both processes is terminated.
    const notification = await sends.createNotification({ title: "Queda do banco" });
    await fake.waitForAccepted(300);
    expect(await terminateSinoBackends()).toBeGreaterThan(0);
    faults++;

    // Then the database goes away altogether (connections refused) while the notification is running.
    await fake.waitForAccepted(900);
    await proxy.stop();
    faults++;
    const away = await fetch(`${url}/api/v1/notices`);
    expect(away.status).toBe(503);
    expect(await away.json()).toEqual({ error: { code: "database_unavailable", message: ptBR.errors.database_unavailable } });
    expect(away.headers.get("retry-after")).toBe("5");
    // Each process notices and says so once (not once per lane per poll), and nobody exits.
    const outageStarted = (l: string) => l.includes("database unavailable; everything waits and retries until it returns");
    await worker.waitForLine(outageStarted);
    await server.waitForLine(outageStarted);
    expect(server.alive && worker.alive).toBe(true);
    const readyz = await fetch(`${url}/readyz`);
    expect(readyz.status).toBe(503);
    expect(await readyz.json()).toMatchObject({ error: { code: "database_unavailable" } });

    await proxy.start();
    // And once when it ends, with its length.
    const ended = JSON.parse(await worker.waitForLine((l) => l.includes("database available again"))) as { outageMs: number };
    expect(ended.outageMs).toBeGreaterThan(0);
    const done = await waitForNotification(() => sends.getNotification(notification.id), undefined, 100);
    expect(done).toMatchObject({ status: "completed", counts: { queued: SUBSCRIBERS, accepted: SUBSCRIBERS, retrying: 0, failed: 0, removed: 0 } });
    const stats = fake.stats();
    expect([...stats.acceptedById.keys()].sort()).toEqual([...ids].sort());
    // At most the sub-batch each lane of each process had in flight at each fault goes out twice.
    expect(stats.duplicateAcceptances).toBeLessThanOrEqual(faults * 2 * LANES * BATCH);

    // While idle: the pooled connections are terminated; the API reconnects and a new notification goes out.
    expect(await terminateSinoBackends()).toBeGreaterThan(0);
    let config: Response;
    for (;;) {
      config = await fetch(`${url}/api/v1/notices`);
      if (config.status === 200) break;
      // A request that met a connection dying under it may get the 503, never anything else.
      expect(config.status).toBe(503);
    }
    fake.reset();
    const second = await sends.createNotification({ title: "De volta" });
    const secondDone = await waitForNotification(() => sends.getNotification(second.id), undefined, 100);
    expect(secondDone.counts.accepted).toBe(SUBSCRIBERS);
    expect(server.alive && worker.alive).toBe(true);
    // A connection dropped by the server is an outage too, however short: logged once, ended once.
    expect(server.lines.concat(worker.lines).some(outageStarted)).toBe(true);
    expect(server.lines.concat(worker.lines).some((l) => /"level":50/.test(l))).toBe(false);

    // And both still stop cleanly.
    server.child.kill("SIGTERM");
    worker.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(await worker.exited).toBe(0);
  });

  it("waits for a database that is down at start-up, saying so, instead of exiting", async () => {
    await proxy.stop();
    const server = spawnSino("start");
    const worker = spawnSino("worker");
    for (const sino of [server, worker]) {
      const waiting = JSON.parse(await sino.waitForLine((l) => l.includes("database unavailable at start-up"))) as { level: number; retryInMs: number };
      expect(waiting.level).toBe(40); // pino's warn
      expect(waiting.retryInMs).toBeGreaterThan(0);
    }
    // It keeps trying, with a growing pause.
    const second = JSON.parse(await server.waitForLine((l) => l.includes("database unavailable at start-up") && l.includes('"attempt":2'))) as { retryInMs: number };
    expect(second.retryInMs).toBeGreaterThan(500);
    expect(server.alive && worker.alive).toBe(true);

    await proxy.start();
    const url = await started(server);
    await worker.waitForLine((l) => l.startsWith("Motor de entrega do Sino"));
    expect((await fetch(`${url}/api/v1/config`)).status).toBe(200);
  });
});
