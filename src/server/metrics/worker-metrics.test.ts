import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabaseLocation, type TestDatabaseLocation } from "../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../test/support/fake-push/fake-push-service.js";
import { parsePrometheusText, sampleValue, type Sample } from "../../../test/support/prometheus-text.js";
import { startTestServer, type TestServer } from "../../../test/support/server.js";
import { fakePushWorkerEnv } from "../../../test/support/worker-env.js";
import { generateVapidKeys } from "../../push/vapid-keys.js";

// `sino start` without lanes and a real `sino worker` process on one PostgreSQL schema: each
// process exposes its own numbers, the worker on its SINO_METRICS_LISTEN listener.
const TOKEN = "metrics-token-for-tests-0123456789";
const vapidKeys = generateVapidKeys();

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

describe("metrics of split processes (PostgreSQL)", { timeout: 60_000 }, () => {
  let fake: FakePushService;
  let location: TestDatabaseLocation;
  let drop: () => Promise<void>;
  let server: TestServer;
  let worker: ChildProcess | undefined;
  let workerUrl: string;

  beforeAll(async () => {
    fake = await startFakePushService();
    ({ location, drop } = await createTestDatabaseLocation("postgres"));
    const env = { ...fakePushWorkerEnv(vapidKeys, { lanes: 1, batch: 50 }), SINO_METRICS_TOKEN: TOKEN };
    server = await startTestServer({ location, env: { ...env, SINO_WORKER_EMBEDDED: "false" } });
    const port = await freePort();
    workerUrl = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "worker"], {
      env: {
        PATH: process.env.PATH ?? "",
        DATABASE_URL: location.url,
        SINO_DATABASE_SCHEMA: location.schema!,
        SINO_DATABASE_POOL_SIZE: "3",
        ...env,
        SINO_METRICS_LISTEN: `127.0.0.1:${port}`,
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    worker = child;
    const exited = once(child, "exit");
    // Its first line says it started, once the metrics listener is up.
    await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      void exited.then(([code]) => reject(new Error(`sino worker exited (${String(code)}) before it was ready`)));
    });
  });

  afterAll(async () => {
    if (worker !== undefined && worker.exitCode === null) {
      const exited = once(worker, "exit");
      worker.kill("SIGTERM");
      await exited;
    }
    await server?.close();
    await drop?.();
    await fake?.close();
  });

  it("counts the pushes in the worker that made them, and both read the same sends", async () => {
    await seedSubscriptions(server.database, fake, 4);
    const created = await server.delivery.createNotification({ title: "Entregue pelo sino worker" });
    const notification = await waitForNotification(() => server.delivery.getNotification(created.id));
    expect(notification.counts).toMatchObject({ queued: 4, accepted: 4 });

    const host = new URL(fake.endpointFor("x")).host;
    const [ofWorker, ofServer] = await Promise.all([scrape(workerUrl), scrape(server.url)]);
    expect(sampleValue(ofWorker, "sino_pushes_total", { host, outcome: "accepted" })).toBe(4);
    expect(sampleValue(ofWorker, "sino_encryption_messages_total")).toBe(4);
    expect(sampleValue(ofServer, "sino_pushes_total", { host, outcome: "accepted" })).toBeUndefined();
    expect(sampleValue(ofServer, "sino_encryption_threads")).toBe(0);
    for (const samples of [ofWorker, ofServer]) {
      expect(sampleValue(samples, "sino_sends", { status: "completed" })).toBe(1);
      expect(sampleValue(samples, "sino_delivery_jobs_pending")).toBe(0);
      expect(sampleValue(samples, "sino_database_pool_max")).toBeGreaterThan(0);
    }
    expect(sampleValue(ofWorker, "sino_database_pool_max")).toBe(3);
    expect(sampleValue(ofWorker, "process_resident_memory_bytes")).toBeGreaterThan(0);
    // The worker's listener serves nothing else, and wants the token.
    expect((await fetch(`${workerUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${workerUrl}/api/v1/config`)).status).toBe(404);
  });
});
