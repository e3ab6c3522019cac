/**
 * `sino worker` has no HTTP server: with SINO_WORKER_HEALTH_PORT it answers the probes on that
 * port. A real worker process on PostgreSQL through a relay the test cuts.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { afterEach, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { testDatabaseUrl } from "../../test/support/postgres.js";
import { relayToPostgres, type TcpProxy } from "../../test/support/tcp-proxy.js";
import { fakePushWorkerEnv } from "../../test/support/worker-env.js";
import { generateVapidKeys } from "../push/vapid-keys.js";

let database: TestDatabase | undefined;
let proxy: TcpProxy | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child !== undefined && child.exitCode === null) {
    child.kill("SIGKILL");
    await once(child, "exit");
  }
  await proxy?.close();
  await database?.cleanup();
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

async function readyzUntil(url: string, status: number): Promise<Response> {
  for (;;) {
    const response = await fetch(`${url}/readyz`);
    if (response.status === status) return response;
    await response.body?.cancel();
  }
}

it("answers /healthz and /readyz on SINO_WORKER_HEALTH_PORT, 503 while its database is away", { timeout: 60_000 }, async () => {
  database = await createTestDatabase("postgres");
  const relay = await relayToPostgres(testDatabaseUrl());
  proxy = relay.proxy;
  const port = await freePort();
  child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "worker"], {
    env: {
      PATH: process.env.PATH ?? "",
      DATABASE_URL: relay.url,
      SINO_DATABASE_SCHEMA: database.location.schema!,
      SINO_DATABASE_POOL_SIZE: "2",
      ...fakePushWorkerEnv(generateVapidKeys(), { lanes: 1, batch: 10 }),
      SINO_HOST: "127.0.0.1",
      SINO_WORKER_HEALTH_PORT: String(port),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const started = new Promise<string>((resolve, reject) => {
    createInterface({ input: child!.stdout! }).on("line", (line) => {
      if (line.startsWith("Motor de entrega do Sino")) resolve(line);
    });
    child!.once("exit", (code) => reject(new Error(`sino worker exited (${code})`)));
  });
  await started;
  const url = `http://127.0.0.1:${port}`;
  expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: "ok" });
  const ready = await fetch(`${url}/readyz`);
  expect(ready.status).toBe(200);
  const body = (await ready.json()) as { checks: { loops: { component: string }[] } };
  expect(body.checks.loops.map((l) => l.component)).toContain("lanes");

  await proxy.stop();
  expect(await (await readyzUntil(url, 503)).json()).toMatchObject({ status: "unavailable", error: { code: "database_unavailable" } });
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  await proxy.start();
  await readyzUntil(url, 200);

  child.kill("SIGTERM");
  const [code] = (await once(child, "exit")) as [number | null];
  expect(code).toBe(0);
});
