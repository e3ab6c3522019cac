import { renameSync } from "node:fs";
import { Writable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { createTestDatabase, createTestDatabaseLocation, DIALECTS } from "../../../test/support/db.js";
import { startTestServer, type TestServer } from "../../../test/support/server.js";
import { relayToPostgres, type TcpProxy } from "../../../test/support/tcp-proxy.js";
import { ptBR } from "../../shared/i18n/catalog.js";
import { createLogger } from "../logger.js";
import { createLiveness } from "./liveness.js";
import { createReadinessCheck } from "./readiness.js";
import { sql } from "kysely";
import { sqlitePath } from "../../store/database.js";

/** Log lines as pino writes them, parsed. */
function captureLogs(): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString("utf8").split("\n")) if (text !== "") lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger("debug", stream) };
}

/** Asks /readyz until it answers `status` (the database coming back is noticed at the next probe). */
async function readyzUntil(url: string, status: number): Promise<Response> {
  for (;;) {
    const response = await fetch(`${url}/readyz`);
    if (response.status === status) return response;
    await response.body?.cancel();
  }
}

describe("GET /healthz and GET /readyz", { timeout: 60_000 }, () => {
  let server: TestServer | undefined;
  let proxy: TcpProxy | undefined;
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await server?.close();
    await proxy?.close();
    await drop?.();
    server = proxy = drop = undefined;
  });

  it("answers 200 ok for the process, and lists the loops the embedded worker runs", async () => {
    const { lines, logger } = captureLogs();
    server = await startTestServer({ logger });
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    const body = (await ready.json()) as { status: string; checks: { database: string; migrations: string; loops: { component: string; alive: boolean }[] } };
    expect(body.status).toBe("ok");
    expect(body.checks.database).toBe("ok");
    expect(body.checks.migrations).toBe("ok");
    expect(body.checks.loops.map((l) => l.component).sort()).toEqual(["hygiene", "lanes", "scheduler", "segment-sizes", "webhooks"]);
    expect(body.checks.loops.every((l) => l.alive)).toBe(true);
    // Successful probes leave nothing in the log (a probe every few seconds would fill it).
    const probeLines = lines.filter((l) => JSON.stringify(l).includes("/healthz") || JSON.stringify(l).includes("/readyz"));
    expect(probeLines).toEqual([]);
    expect(lines.some((l) => l.msg === "request completed")).toBe(false);
  });

  it("has no loops to watch in an API-only process (SINO_WORKER_EMBEDDED=false)", async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: { loops: unknown[] } }).checks.loops).toEqual([]);
  });

  it("is outside /api/v1, public and in the OpenAPI document", async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, { get?: { operationId?: string; security?: unknown[] } }> };
    expect(doc.paths["/healthz"]?.get).toMatchObject({ operationId: "getHealth", security: [] });
    expect(doc.paths["/readyz"]?.get).toMatchObject({ operationId: "getReadiness", security: [] });
  });

  it("PostgreSQL: 503 database_unavailable while the database is away, 200 once it is back; logged once each way", async () => {
    const fresh = await createTestDatabaseLocation("postgres");
    drop = fresh.drop;
    const relay = await relayToPostgres(fresh.location.url);
    proxy = relay.proxy;
    const location = { ...fresh.location, url: relay.url };
    const { lines, logger } = captureLogs();
    server = await startTestServer({ location, logger });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);

    await proxy.stop();
    const away = await readyzUntil(server.url, 503);
    expect(await away.json()).toMatchObject({
      status: "unavailable",
      checks: { database: "unavailable", migrations: "unknown" },
      error: { code: "database_unavailable", message: ptBR.errors.database_unavailable },
    });
    // The process itself is fine: the liveness probe must not get it restarted.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(503);

    await proxy.start();
    const back = await readyzUntil(server.url, 200);
    expect(await back.json()).toMatchObject({ status: "ok", checks: { database: "ok", migrations: "ok" } });
    expect(lines.filter((l) => l.msg === "not ready")).toHaveLength(1);
    expect(lines.filter((l) => l.msg === "ready again")).toHaveLength(1);
  });

  it("SQLite: 503 while the database file is not where Sino opened it, 200 once it is back", async () => {
    server = await startTestServer();
    // Sino's own connection keeps working on a file that was moved or deleted (writing into an
    // inode nobody will open again after a restart), so readiness opens the file afresh: a volume
    // gone or a file moved away is what "the database went away" means for SQLite. (Making the
    // file unreadable would not do: the tests run as root, and an open descriptor keeps reading.)
    const file = sqlitePath(server.location.url);
    renameSync(file, `${file}.away`);
    try {
      const away = await fetch(`${server.url}/readyz`);
      expect(away.status).toBe(503);
      expect(await away.json()).toMatchObject({ status: "unavailable", error: { code: "database_unavailable" } });
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    } finally {
      renameSync(`${file}.away`, file);
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});

for (const dialect of DIALECTS) {
  describe(`readiness checks (${dialect})`, () => {
    it("says migrations_pending when the database lacks a migration this code has", async () => {
      const database = await createTestDatabase(dialect);
      try {
        const check = createReadinessCheck({
          database,
          sqliteFile: dialect === "sqlite" ? database.location.url : undefined,
          liveness: createLiveness(),
        });
        expect(await check()).toMatchObject({ ready: true, database: "ok", migrations: "ok", code: undefined });
        await sql`delete from kysely_migration where name = (select max(name) from kysely_migration)`.execute(database.db);
        expect(await check()).toMatchObject({ ready: false, database: "ok", migrations: "unavailable", code: "migrations_pending" });
      } finally {
        await database.cleanup();
      }
    });

    it("says background_task_stalled when a loop stops coming round", async () => {
      const database = await createTestDatabase(dialect);
      try {
        let now = 1_000_000;
        const liveness = createLiveness({ clock: () => now });
        liveness.expect("scheduler", 5_000);
        const check = createReadinessCheck({ database, sqliteFile: dialect === "sqlite" ? database.location.url : undefined, liveness, clock: () => now });
        now += 4_000;
        expect(await check()).toMatchObject({ ready: true });
        now += 2_000;
        const stalled = await check();
        expect(stalled).toMatchObject({ ready: false, code: "background_task_stalled" });
        expect(stalled.loops.components).toEqual([{ component: "scheduler", lastBeat: 1_000_000, ageMs: 6_000, maxAgeMs: 5_000, alive: false }]);
        liveness.beat("scheduler");
        expect(await check()).toMatchObject({ ready: true });
      } finally {
        await database.cleanup();
      }
    });
  });
}
