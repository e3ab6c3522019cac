import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabaseLocation } from "../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../test/support/fake-push/fake-push-service.js";
import { subscriberKeysFor } from "../../../test/support/fake-push/keys.js";
import { parsePrometheusText, sampleValue, type Sample } from "../../../test/support/prometheus-text.js";
import { startTestServer, type TestServer } from "../../../test/support/server.js";
import { fakePushServerEnv } from "../../../test/support/worker-env.js";
import { relayToPostgres, type TcpProxy } from "../../../test/support/tcp-proxy.js";
import { aBrowserSubscription } from "../../../test/support/subscriptions.js";
import type { Dialect } from "../../store/database.js";
import { countedOutage } from "../../delivery/runtime.js";
import { createLiveness } from "../health/liveness.js";
import { createMetrics } from "./metrics.js";

const TOKEN = "metrics-token-for-tests-0123456789";
const ENGINE_ENV = fakePushServerEnv({ SINO_PUSH_TIMEOUT_MS: "2000", SINO_METRICS_TOKEN: TOKEN });

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

async function scrape(url: string, token: string | undefined = TOKEN): Promise<Sample[]> {
  const response = await fetch(`${url}/metrics`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await response.text());
}

function post(server: TestServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}/api/v1${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
}

for (const dialect of ["sqlite", "postgres"] as const satisfies readonly Dialect[]) {
  describe(`GET /metrics after a small send (${dialect})`, () => {
    let server: TestServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
      fake.reset();
    });

    it("counts the pushes by host and outcome, the sends, the retry backlog and the ingestion", async () => {
      server = await startTestServer({ dialect, env: ENGINE_ENV });
      const ids = await seedSubscriptions(server.database, fake, 6);
      fake.setBehaviour({ id: ids[1]!, action: { kind: "status", status: 410 } });
      fake.setBehaviour({ id: ids[2]!, action: { kind: "status", status: 400 } });
      fake.setBehaviour({ id: ids[3]!, action: { kind: "status", status: 503, retryAfter: 3600 } });
      const engine = server.delivery;
      const created = await engine.createNotification({ title: "Métricas", body: "Uma pequena" });
      const send = await waitForNotification(
        () => engine.getNotification(created.id),
        (s) => s.counts.accepted + s.counts.failed + s.counts.removed + s.counts.retrying === s.counts.queued,
      );
      expect(send.counts).toMatchObject({ queued: 6, accepted: 3, failed: 1, removed: 1, retrying: 1 });

      // The public write paths: two reports of the notification, a new browser and the same browser again.
      const keys = subscriberKeysFor(fake.keySeed, ids[0]!);
      const report = { notificationId: String(send.id), endpoint: fake.endpointFor(ids[0]!), auth: keys.auth.toString("base64url") };
      expect((await post(server, "/events", { ...report, type: "shown" })).status).toBe(204);
      expect((await post(server, "/events", { ...report, type: "clicked" })).status).toBe(204);
      expect((await post(server, "/events", { ...report, type: "clicked", endpoint: fake.endpointFor("unknown") })).status).toBe(404);
      const browser = aBrowserSubscription({ endpoint: fake.endpointFor("new-browser") });
      expect((await post(server, "/subscriptions", browser)).status).toBe(201);
      expect((await post(server, "/subscriptions", browser)).status).toBe(200);

      const samples = await scrape(server.url);
      const host = new URL(fake.endpointFor("x")).host;
      const pushes = (outcome: string) => sampleValue(samples, "sino_pushes_total", { host, outcome });
      expect({ accepted: pushes("accepted"), retry: pushes("retry"), failed: pushes("failed"), removed: pushes("removed") }).toEqual({
        accepted: 3,
        retry: 1,
        failed: 1,
        removed: 1,
      });
      // One notification, in the status the store gives it (a retry still pending); every other status at 0.
      for (const status of ["scheduled", "queued", "sending", "completed", "cancelled", "failed", "no_recipients"]) {
        expect(sampleValue(samples, "sino_sends", { status }), status).toBe(status === send.status ? 1 : 0);
      }
      expect(sampleValue(samples, "sino_delivery_jobs_pending")).toBe(0);
      expect(sampleValue(samples, "sino_delivery_oldest_job_age_seconds")).toBe(0);
      expect(sampleValue(samples, "sino_delivery_retries")).toBe(1);
      expect(sampleValue(samples, "sino_delivery_retries_due")).toBe(0);
      expect(sampleValue(samples, "sino_events_received_total", { type: "shown" })).toBe(1);
      expect(sampleValue(samples, "sino_events_received_total", { type: "clicked" })).toBe(1);
      expect(sampleValue(samples, "sino_events_received_total", { type: "closed" })).toBe(0);
      expect(sampleValue(samples, "sino_registrations_total", { outcome: "created" })).toBe(1);
      expect(sampleValue(samples, "sino_registrations_total", { outcome: "updated" })).toBe(1);
      // Timed by route pattern and status: the refused report has its own series.
      const requests = (route: string, status: string) => sampleValue(samples, "sino_http_request_duration_seconds_count", { method: "POST", route, status });
      expect(requests("/api/v1/events", "204")).toBe(2);
      expect(requests("/api/v1/events", "404")).toBe(1);
      expect(requests("/api/v1/subscriptions", "201")).toBe(1);
      expect(samples.filter((s) => s.name === "sino_http_request_duration_seconds_count" && s.labels.route !== undefined && /\d{3,}/.test(s.labels.route))).toEqual([]);
      // Six pushes, six encryptions on the one thread.
      expect(sampleValue(samples, "sino_encryption_threads")).toBe(1);
      expect(sampleValue(samples, "sino_encryption_messages_total")).toBe(6);
      expect(sampleValue(samples, "sino_encryption_busy_seconds_total")).toBeGreaterThan(0);
      expect(sampleValue(samples, "sino_push_requests_in_flight")).toBe(0);
      expect(sampleValue(samples, "sino_database_errors_total", { kind: "scrape" })).toBe(0);
      expect(sampleValue(samples, "sino_database_errors_total", { kind: "delivery" })).toBe(0);
      // The background loops this process runs, each alive and recently round (what /readyz checks).
      for (const component of ["lanes", "scheduler", "webhooks"]) {
        expect(sampleValue(samples, "sino_loop_alive", { component }), component).toBe(1);
        expect(sampleValue(samples, "sino_loop_heartbeat_age_seconds", { component }), component).toBeLessThan(30);
      }
      // The process's own metrics come with them.
      expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
      expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
      if (dialect === "postgres") {
        expect(sampleValue(samples, "sino_database_pool_max")).toBe(5);
        expect(sampleValue(samples, "sino_database_pool_connections", { state: "waiting" })).toBe(0);
      } else {
        expect(sampleValue(samples, "sino_database_pool_max")).toBeUndefined();
      }
    });

    it("reports the pending jobs of a send no worker has taken, and how long it has waited", async () => {
      // The metrics' clock runs a minute ahead of the notification's: its oldest job has waited 60 s.
      const metrics = createMetrics({ processMetrics: false, clock: () => Date.now() + 60_000 });
      server = await startTestServer({ dialect, env: { ...ENGINE_ENV, SINO_WORKER_EMBEDDED: "false" }, metrics });
      await seedSubscriptions(server.database, fake, 3);
      await server.delivery.createNotification({ title: "Ninguém entrega aqui" });
      const samples = await scrape(server.url);
      expect(sampleValue(samples, "sino_sends", { status: "queued" })).toBe(1);
      expect(sampleValue(samples, "sino_delivery_jobs_pending")).toBe(1);
      const age = sampleValue(samples, "sino_delivery_oldest_job_age_seconds")!;
      expect(age).toBeGreaterThanOrEqual(60);
      expect(age).toBeLessThan(120);
      expect(sampleValue(samples, "sino_pushes_total", { host: new URL(fake.endpointFor("x")).host, outcome: "accepted" })).toBeUndefined();
      expect(fake.stats().requests).toBe(0);
    });
  });
}

describe("who may read /metrics", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("refuses a scrape without the token or with another one, in pt-BR, with a bearer challenge", async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_METRICS_TOKEN: TOKEN } });
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, `Basic ${TOKEN}`, TOKEN]) {
      const response = await fetch(`${server.url}/metrics`, authorization === undefined ? {} : { headers: { authorization } });
      expect(response.status, authorization ?? "no header").toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="sino-metrics"');
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("metrics_token_invalid");
      expect(body.error.message).toContain("SINO_METRICS_TOKEN");
    }
    expect(sampleValue(await scrape(server.url), "sino_delivery_jobs_pending")).toBe(0);
  });

  it("is off (404) with neither a token nor a listener", async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    const response = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    // An API-style 404, not the web app's page fallback.
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect(server.metricsUrl).toBeUndefined();
  });

  it("moves to SINO_METRICS_LISTEN, which serves only /metrics and asks for the token when one is set", async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_METRICS_LISTEN: "127.0.0.1:0", SINO_METRICS_TOKEN: TOKEN } });
    const listener = server.metricsUrl!;
    expect(listener).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new URL(listener).port).not.toBe(new URL(server.url).port);
    // Not on the main listener any more, even with the token.
    const main = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(main.status).toBe(404);
    expect(((await main.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await fetch(`${listener}/metrics`)).status).toBe(401);
    expect(sampleValue(await scrape(listener), "sino_delivery_jobs_pending")).toBe(0);
    // Nothing else is served there: not the API, not the web app.
    for (const path of ["/", "/api/v1/config", "/painel"]) expect((await fetch(`${listener}${path}`)).status, path).toBe(404);
  });

  it("serves the listener without a token when none is set (a private network's scraper)", async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_METRICS_LISTEN: "127.0.0.1:0" } });
    expect(sampleValue(await scrape(server.metricsUrl!, undefined), "sino_delivery_jobs_pending")).toBe(0);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });
});

/** A server on a new PostgreSQL schema, reached through a TCP relay the test can cut and restore. */
async function startServerBehindRelay(env: Record<string, string>): Promise<{ server: TestServer; proxy: TcpProxy; close(): Promise<void> }> {
  const { location, drop } = await createTestDatabaseLocation("postgres");
  const { proxy, url } = await relayToPostgres(location.url);
  const server = await startTestServer({ location: { ...location, url }, env }).catch(async (error: unknown) => {
    await proxy.close();
    await drop();
    throw error;
  });
  return {
    server,
    proxy,
    async close() {
      await server.close();
      await proxy.close();
      await drop();
    },
  };
}

describe("the background loops' heartbeats", () => {
  it("says which loops are late, and drops a loop stopped on purpose", async () => {
    let now = 1_000_000;
    const liveness = createLiveness({ clock: () => now });
    liveness.expect("lanes", 10_000);
    liveness.expect("scheduler", 10_000);
    const metrics = createMetrics({ processMetrics: false, clock: () => now });
    metrics.observe({ liveness });
    now += 4_000;
    liveness.beat("lanes");
    now += 8_000;
    const late = parsePrometheusText(await metrics.scrape());
    expect(sampleValue(late, "sino_loop_alive", { component: "lanes" })).toBe(1);
    expect(sampleValue(late, "sino_loop_heartbeat_age_seconds", { component: "lanes" })).toBe(8);
    expect(sampleValue(late, "sino_loop_alive", { component: "scheduler" })).toBe(0);
    expect(sampleValue(late, "sino_loop_heartbeat_age_seconds", { component: "scheduler" })).toBe(12);
    liveness.forget("scheduler");
    const after = parsePrometheusText(await metrics.scrape());
    expect(sampleValue(after, "sino_loop_alive", { component: "scheduler" })).toBeUndefined();
    expect(sampleValue(after, "sino_loop_alive", { component: "lanes" })).toBe(1);
  });
});

describe("database errors seen by the delivery loops", () => {
  it("counts each failed round the outage tracker recognises as the database being away, and nothing else", () => {
    const metrics = createMetrics({ processMetrics: false });
    const seen: string[] = [];
    const outage = countedOutage({ failed: (error, source) => (seen.push(source), (error as { code?: string }).code === "ECONNREFUSED"), succeeded: () => undefined }, metrics);
    expect(outage.failed(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }), "lanes")).toBe(true);
    expect(outage.failed(new Error("a bug"), "scheduler")).toBe(false);
    expect(outage.failed(Object.assign(new Error("refused"), { code: "ECONNREFUSED" }), "webhooks")).toBe(true);
    expect(seen).toEqual(["lanes", "scheduler", "webhooks"]);
    return metrics.scrape().then((text) => expect(sampleValue(parsePrometheusText(text), "sino_database_errors_total", { kind: "delivery" })).toBe(2));
  });

  it("counts the lanes' rounds that fail while PostgreSQL is away", { timeout: 60_000 }, async () => {
    const { server, proxy, close } = await startServerBehindRelay(ENGINE_ENV);
    try {
      expect(sampleValue(await scrape(server.url), "sino_database_errors_total", { kind: "delivery" })).toBe(0);
      await proxy.stop();
      const deadline = Date.now() + 30_000;
      let counted = 0;
      while (counted === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        counted = sampleValue(await scrape(server.url), "sino_database_errors_total", { kind: "delivery" }) ?? 0;
      }
      expect(counted).toBeGreaterThanOrEqual(1);
      await proxy.start();
    } finally {
      await close();
    }
  });
});

describe("database errors (PostgreSQL through a relay the test cuts)", () => {
  it("counts broken connections, requests answered 503 and scrapes that could not read the queue, and keeps answering", async () => {
    const { server, proxy, close } = await startServerBehindRelay({ SINO_WORKER_EMBEDDED: "false", SINO_METRICS_TOKEN: TOKEN });
    try {
      // Connections in the pool, then the database goes away.
      expect((await fetch(`${server.url}/api/v1/notices`)).status).toBe(200);
      await proxy.stop();
      expect((await fetch(`${server.url}/api/v1/notices`)).status).toBe(503);
      const away = await scrape(server.url);
      expect(sampleValue(away, "sino_database_errors_total", { kind: "request" })).toBe(1);
      expect(sampleValue(away, "sino_database_errors_total", { kind: "scrape" })).toBe(1);
      expect(sampleValue(away, "sino_database_errors_total", { kind: "connection" })).toBeGreaterThanOrEqual(1);
      expect(sampleValue(away, "process_resident_memory_bytes")).toBeGreaterThan(0);

      await proxy.start();
      const back = await scrape(server.url);
      expect(sampleValue(back, "sino_database_errors_total", { kind: "scrape" })).toBe(1);
      expect(sampleValue(back, "sino_delivery_jobs_pending")).toBe(0);
    } finally {
      await close();
    }
  });
});
