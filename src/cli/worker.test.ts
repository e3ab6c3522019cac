import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { fakePushWorkerEnv } from "../../test/support/worker-env.js";
import { createNotificationService, type NotificationService } from "../delivery/notification-service.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createRepositories } from "../store/repositories.js";

// Real `sino worker` processes on one PostgreSQL schema, driven only through the database (the
// sends) and observed through the fake push service (what was accepted, per subscription).
const LANES = 2;
const BATCH = 100;
const vapidKeys = generateVapidKeys();

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService({ decryptSample: 50 });
});
afterAll(async () => {
  await fake.close();
});

interface WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
}

// Real processes, 20,000 subscriptions: longer than the default per-test budget.
describe("sino worker processes on PostgreSQL", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let sends: NotificationService;
  const workers: WorkerProcess[] = [];

  async function startWorkerProcess(env: Record<string, string> = {}): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "worker"], {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: database.location.url,
        SINO_DATABASE_SCHEMA: database.location.schema!,
        SINO_DATABASE_POOL_SIZE: "4",
        ...fakePushWorkerEnv(vapidKeys, { lanes: LANES, batch: BATCH }),
        ...env,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    const exited = once(child, "exit").then(([code]) => code as number | null);
    const ready = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      void exited.then((code) => reject(new Error(`sino worker exited (${code}) before it was ready`)));
    });
    expect(ready).toContain(`:${child.pid}:`);
    const worker = { child, exited };
    workers.push(worker);
    return worker;
  }

  /** Lease owners of finished range jobs, by worker process id. */
  async function jobsByProcess(): Promise<Map<string, number>> {
    const rows = await database.db.selectFrom("delivery_jobs").select("lease_owner").where("done", "=", 1).execute();
    const counts = new Map<string, number>();
    for (const { lease_owner } of rows) {
      const pid = lease_owner?.split(":")[1] ?? "none";
      counts.set(pid, (counts.get(pid) ?? 0) + 1);
    }
    return counts;
  }

  beforeEach(async () => {
    fake.reset();
    database = await createTestDatabase("postgres");
    const { notifications, idempotencyKeys } = createRepositories(database);
    sends = createNotificationService({
      notifications,
      idempotencyKeys,
      clock: Date.now,
      jobSize: 1000,
      onChange: () => undefined,
    });
  });
  afterEach(async () => {
    for (const { child, exited } of workers.splice(0)) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    }
    await database.cleanup();
  });

  /** 3,000 subscriptions, a slow push service, one worker 600 pushes into a notification: then `signal`. */
  async function interruptMidSend(title: string, signal: NodeJS.Signals) {
    const ids = await seedSubscriptions(database, fake, 3000);
    fake.setBehaviour({ latencyMs: 100 });
    const first = await startWorkerProcess();
    const notification = await sends.createNotification({ title });
    await fake.waitForAccepted(600);
    first.child.kill(signal);
    return { ids, notification, exitCode: await first.exited };
  }

  it("finishes a send after its worker is killed with SIGKILL, missing no one, duplicates within the in-flight bound", async () => {
    const { ids, notification, exitCode } = await interruptMidSend("Queda", "SIGKILL");
    expect(exitCode).toBeNull();
    const before = fake.stats().accepted;
    expect(before).toBeLessThan(3000);

    await startWorkerProcess();
    const done = await waitForNotification(() => sends.getNotification(notification.id));
    expect(done).toMatchObject({ status: "completed", counts: { queued: 3000, accepted: 3000, retrying: 0, failed: 0, removed: 0 } });
    const stats = fake.stats();
    expect([...stats.acceptedById.keys()].sort()).toEqual([...ids].sort());
    // Only what the killed process had in flight (one sub-batch per lane) may go out twice.
    expect(stats.duplicateAcceptances).toBeLessThanOrEqual(LANES * BATCH);
  });

  it("stops on SIGTERM with exit 0 after checkpointing its in-flight pushes; the next worker sends no duplicate", async () => {
    const { ids, notification, exitCode } = await interruptMidSend("Pausa", "SIGTERM");
    expect(exitCode).toBe(0);

    // Everything the push service accepted was checkpointed: no push was left unrecorded.
    const midway = await sends.getNotification(notification.id);
    expect(midway?.counts.accepted).toBe(fake.stats().accepted);
    expect(midway?.counts.accepted).toBeLessThan(3000);
    // The leases were given back rather than left to expire.
    const held = await database.db.selectFrom("delivery_jobs").select("id").where("done", "=", 0).where("lease_owner", "is not", null).execute();
    expect(held).toEqual([]);

    await startWorkerProcess();
    const done = await waitForNotification(() => sends.getNotification(notification.id));
    expect(done).toMatchObject({ status: "completed", counts: { queued: 3000, accepted: 3000 } });
    const stats = fake.stats();
    expect([...stats.acceptedById.keys()].sort()).toEqual([...ids].sort());
    expect(stats.duplicateAcceptances).toBe(0);
  });

  it("shares one send of 20,000 subscriptions between two worker processes: none skipped, none sent twice", async () => {
    const ids = await seedSubscriptions(database, fake, 20_000);
    fake.setBehaviour({ latencyMs: 5 });
    const env = { SINO_LEASE_SECONDS: "30", SINO_PUSH_TIMEOUT_MS: "10000" };
    const [a, b] = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]);
    const notification = await sends.createNotification({ title: "Dois entregadores" });
    const done = await waitForNotification(() => sends.getNotification(notification.id), undefined, 100);
    expect(done).toMatchObject({ status: "completed", counts: { queued: 20_000, accepted: 20_000, retrying: 0, failed: 0, removed: 0 } });
    const stats = fake.stats();
    expect(stats.acceptedById.size).toBe(20_000);
    expect(new Set(ids)).toEqual(new Set(stats.acceptedById.keys()));
    expect(stats.duplicateAcceptances).toBe(0);
    const shares = await jobsByProcess();
    expect(shares.get(String(a!.child.pid))).toBeGreaterThan(0);
    expect(shares.get(String(b!.child.pid))).toBeGreaterThan(0);
    expect((shares.get(String(a!.child.pid)) ?? 0) + (shares.get(String(b!.child.pid)) ?? 0)).toBe(20);
  });

  it("refuses to run on SQLite", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "worker"], {
      env: { PATH: process.env.PATH ?? "", DATABASE_URL: "sqlite::memory:", SINO_LOG_LEVEL: "silent" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const [code] = await once(child, "exit");
    expect(code).toBe(1);
    expect(stderr).toContain("sino worker precisa de PostgreSQL");
  });
});
