import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateVapidKeys, parseVapidKeys } from "../push/vapid-keys.js";
import type { PublicConfig } from "../shared/api/config.js";
import { DIALECTS, createTestDatabaseLocation, type TestDatabaseLocation } from "../../test/support/db.js";
import { useTestDatabaseLocation } from "../../test/support/test-database.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { aBrowserSubscription } from "../../test/support/subscriptions.js";
import { loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { startServer } from "./main.js";

async function publicKeyOf(server: TestServer): Promise<string> {
  const response = await fetch(`${server.url}/api/v1/config`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as PublicConfig;
  // Only public settings: the VAPID public key, what the bell's channel menu needs and the zone the
  // Painel shows and schedules times in.
  expect(Object.keys(body).sort()).toEqual(["channels", "maxChannelsPerSubscription", "organisation", "timeZone", "vapidPublicKey"]);
  return body.vapidPublicKey;
}

for (const dialect of DIALECTS) {
  describe(`server start-up on ${dialect}`, () => {
    let location: TestDatabaseLocation;
    useTestDatabaseLocation(dialect, (created) => (location = created));

    it("serves a VAPID public key generated on first start and the same one after a restart", async () => {
      const first = await startTestServer({ location });
      const key = await publicKeyOf(first);
      await first.close();
      const second = await startTestServer({ location });
      try {
        expect(await publicKeyOf(second)).toBe(key);
        const stored = await second.database.db.selectFrom("settings").select("value").where("key", "=", "vapid.keys").executeTakeFirstOrThrow();
        const pair = JSON.parse(stored.value) as { publicKey: string; privateKey: string };
        expect(pair.publicKey).toBe(key);
        expect(() => parseVapidKeys(pair)).not.toThrow();
      } finally {
        await second.close();
      }
    });

    it("serves the key pair from the environment when one is set, and never the private key", async () => {
      const keys = generateVapidKeys();
      const server = await startTestServer({
        location,
        env: { SINO_VAPID_PUBLIC_KEY: keys.publicKey, SINO_VAPID_PRIVATE_KEY: keys.privateKey },
      });
      try {
        const text = await (await fetch(`${server.url}/api/v1/config`)).text();
        expect(JSON.parse(text)).toMatchObject({ vapidPublicKey: keys.publicKey });
        expect(text).not.toContain(keys.privateKey);
      } finally {
        await server.close();
      }
    });
  });
}

describe("concurrent start-up on PostgreSQL", () => {
  it("gives two servers starting at once on a fresh database the same VAPID keys", async () => {
    const { location, drop } = await createTestDatabaseLocation("postgres");
    try {
      const servers = await Promise.all([startTestServer({ location }), startTestServer({ location })]);
      try {
        const [a, b] = await Promise.all(servers.map(publicKeyOf));
        expect(a).toBe(b);
        // And both see the same subscriptions table.
        const sub = aBrowserSubscription();
        const post = await fetch(`${servers[0].url}/api/v1/subscriptions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(sub),
        });
        expect(post.status).toBe(201);
        const again = await fetch(`${servers[1].url}/api/v1/subscriptions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(sub),
        });
        expect(again.status).toBe(200);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    } finally {
      await drop();
    }
  });
});

describe("serving the web app", () => {
  let webDir: string;
  let server: TestServer;
  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), "sino-web-"));
    mkdirSync(join(webDir, "assets"));
    writeFileSync(join(webDir, "index.html"), "<!doctype html><html lang=\"pt-BR\"><title>Sino</title></html>");
    writeFileSync(join(webDir, "sw.js"), "self.addEventListener('push', () => {});");
    writeFileSync(join(webDir, "assets", "main-abc123.js"), "console.log(1);");
    server = await startTestServer({ env: { SINO_WEB_DIR: webDir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("serves the service worker uncached with a root scope allowance", async () => {
    const res = await fetch(`${server.url}/sw.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("service-worker-allowed")).toBe("/");
    expect(res.headers.get("content-type")).toMatch(/javascript/);
  });

  it("caches hashed assets for good", async () => {
    const res = await fetch(`${server.url}/assets/main-abc123.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("answers the app's own routes with index.html", async () => {
    for (const path of ["/", "/avisos", "/painel/envios/12"]) {
      const res = await fetch(server.url + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^text\/html/);
      expect(await res.text(), path).toContain("<title>Sino</title>");
    }
  });

  it("answers a missing file and an unknown API path with 404, not index.html", async () => {
    expect((await fetch(`${server.url}/missing.png`)).status).toBe(404);
    const api = await fetch(`${server.url}/api/v1/missing`);
    expect(api.status).toBe(404);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("not_found");
  });
});

describe("logs", () => {
  it("never contain a subscription's endpoint or auth secret", async () => {
    const lines: string[] = [];
    const logger = createLogger("trace", { write: (line: string) => void lines.push(line) });
    const { location, drop } = await createTestDatabaseLocation("sqlite");
    const config = loadConfig({ SINO_PORT: "0", SINO_HOST: "127.0.0.1", DATABASE_URL: location.url, SINO_WEB_DIR: "/nonexistent" });
    const server = await startServer(config, { logger });
    const sub = aBrowserSubscription();
    try {
      const path = `${server.url}/api/v1/subscriptions`;
      const headers = { "content-type": "application/json" };
      expect((await fetch(path, { method: "POST", headers, body: JSON.stringify(sub) })).status).toBe(201);
      expect((await fetch(path, { method: "POST", headers, body: JSON.stringify({ ...sub, keys: { ...sub.keys, p256dh: "x" } }) })).status).toBe(400);
      expect((await fetch(path, { method: "DELETE", headers, body: JSON.stringify({ endpoint: sub.endpoint, auth: sub.keys.auth }) })).status).toBe(204);
    } finally {
      await server.close();
      await drop();
    }
    const log = lines.join("");
    // The log says what happened, with the push service's host and no secrets.
    expect(log).toContain("subscription registered");
    expect(log).toContain("fcm.googleapis.com");
    expect(log).not.toContain(new URL(sub.endpoint).pathname);
    expect(log).not.toContain(sub.keys.auth);
    expect(log).not.toContain(sub.keys.p256dh);
  });
});
