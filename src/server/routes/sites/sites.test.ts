/**
 * Sites over HTTP, on SQLite and PostgreSQL: sites (admin CRUD, validation, the built-in one),
 * CORS on the public API for registered origins only (preflight and actual requests), the site
 * key and its origin, the per-address rate limit and per-site cap, deleting a site with its
 * subscribers, the CSRF guard, and the site filters of the subscribers list, overview and stats.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addUser, errorOf, limitErrorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { useFakePushService } from "../../../../test/support/fake-push/shared-fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com" };
const SITE = "https://www.exemplo.com.br";
const OTHER_SITE = "https://loja.exemplo.com.br";
const STRANGER = "https://malicioso.example.net";

const fake = useFakePushService();

for (const dialect of DIALECTS) {
  describe(`sites and the public API's CORS on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let siteKey: string;
    let siteId: string;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV });
      admin = await setUpAdmin(server);
    });
    afterAll(async () => {
      await server.close();
    });

    /** A request as a page on `origin` makes it (fetch from another origin: no cookie). */
    async function fromOrigin(origin: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
      const res = await fetch(server.url + path, {
        method,
        headers: { origin, ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text === "" ? undefined : JSON.parse(text) };
    }
    async function preflight(origin: string, path: string, method = "POST") {
      return fetch(server.url + path, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": method, "access-control-request-headers": "content-type" },
      });
    }
    async function subscriptionCount(): Promise<number> {
      const row = await server.database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    }
    async function siteIdOfRow(endpoint: string): Promise<number | undefined> {
      const row = await server.database.db.selectFrom("subscriptions").select("site_id").where("endpoint", "=", endpoint).executeTakeFirst();
      return row === undefined ? undefined : Number(row.site_id);
    }

    it("lists Sino's own origin as a built-in site, and lets an admin register a normalised origin once", async () => {
      const initial = await admin.get("/api/v1/sites");
      expect(initial.status).toBe(200);
      expect(initial.body.sinoUrl).toBe("https://sino.example.com");
      expect(initial.body.sites).toEqual([expect.objectContaining({ origin: "https://sino.example.com", builtIn: true, subscribers: 0 })]);

      const created = await admin.post("/api/v1/sites", { origin: "  HTTPS://WWW.Exemplo.com.br:443/ " });
      expect(created.status).toBe(201);
      expect(created.body.site).toMatchObject({ origin: SITE, builtIn: false, subscribers: 0 });
      expect(created.body.site.key).toMatch(/^[A-Za-z0-9_-]{12}$/);
      siteKey = created.body.site.key;
      siteId = created.body.site.id;

      expect(await admin.post("/api/v1/sites", { origin: "https://www.exemplo.com.br" })).toMatchObject({ status: 409, body: errorOf("site_origin_taken", "origin") });
      expect(await admin.post("/api/v1/sites", { origin: "https://sino.example.com/" })).toMatchObject({ status: 409, body: errorOf("site_origin_taken", "origin") });
      expect((await admin.post("/api/v1/sites", { origin: OTHER_SITE })).status).toBe(201);
      const listed = await admin.get("/api/v1/sites");
      expect(listed.body.sites.map((s: { origin: string }) => s.origin)).toEqual(["https://sino.example.com", OTHER_SITE, SITE]);
    });

    it("refuses what is not an origin with a pt-BR error and stores nothing", async () => {
      const cases: [string, string][] = [
        ["www.exemplo.com.br", "site_origin_invalid"],
        ["https://", "site_origin_invalid"],
        ["https://user:senha@exemplo.com.br", "site_origin_invalid"],
        ["ftp://exemplo.com.br", "site_origin_not_https"],
        ["http://exemplo.com.br", "site_origin_not_https"],
      ];
      for (const [origin, code] of cases) {
        expect(await admin.post("/api/v1/sites", { origin }), origin).toMatchObject({ status: 400, body: errorOf(code, "origin") });
      }
      // A page's address is reduced to its origin, as the README says (the browser's Origin has no path).
      for (const [pasted, origin] of [
        ["https://Blog.Exemplo.com.br/2026/11/um-post?utm=x#comentarios", "https://blog.exemplo.com.br"],
        ["https://loja2.exemplo.com.br/?x=1", "https://loja2.exemplo.com.br"],
      ]) {
        const created = await admin.post("/api/v1/sites", { origin: pasted });
        expect(created.status, pasted).toBe(201);
        expect(created.body.site.origin).toBe(origin);
        expect((await admin.delete(`/api/v1/sites/${created.body.site.id}`)).status).toBe(200);
      }
      // http on loopback is a secure context, so a developer's local site may be registered.
      expect((await admin.post("/api/v1/sites", { origin: "http://localhost:3000" })).body.site.origin).toBe("http://localhost:3000");
      const origins = (await admin.get("/api/v1/sites")).body.sites.map((s: { origin: string }) => s.origin);
      expect(origins).toHaveLength(4);
    });

    it("lets a publisher read the sites but not change them, and nobody else", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.get("/api/v1/sites")).status).toBe(200);
      expect((await publisher.post("/api/v1/sites", { origin: "https://x.exemplo.com.br" })).status).toBe(403);
      expect((await publisher.delete(`/api/v1/sites/${siteId}`)).status).toBe(403);
      expect((await new ApiClient(server).get("/api/v1/sites")).status).toBe(401);
    });

    it("grants CORS to a registered site's preflight and requests, with Vary: Origin and no credentials", async () => {
      const pre = await preflight(SITE, "/api/v1/subscriptions");
      expect(pre.status).toBe(204);
      expect(pre.headers.get("access-control-allow-origin")).toBe(SITE);
      expect(pre.headers.get("access-control-allow-methods")).toContain("POST");
      expect(pre.headers.get("access-control-allow-headers")?.toLowerCase()).toBe("content-type");
      expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
      expect(pre.headers.get("vary")).toContain("Origin");

      const config = await fromOrigin(SITE, "GET", `/api/v1/config?site=${siteKey}`);
      expect(config.status).toBe(200);
      expect(config.headers.get("access-control-allow-origin")).toBe(SITE);
      expect(config.headers.get("vary")).toContain("Origin");
      expect(config.body.vapidPublicKey).toEqual(expect.any(String));

      const sub = aBrowserSubscription();
      const created = await fromOrigin(SITE, "POST", "/api/v1/subscriptions", { ...sub, site: siteKey });
      expect(created.status).toBe(201);
      expect(created.headers.get("access-control-allow-origin")).toBe(SITE);
      expect(await siteIdOfRow(sub.endpoint)).toBe(Number(siteId));

      const channels = await fromOrigin(SITE, "PUT", "/api/v1/subscriptions/channels", { endpoint: sub.endpoint, auth: sub.keys.auth, channels: [] });
      expect(channels.status).toBe(200);
      expect(channels.headers.get("access-control-allow-origin")).toBe(SITE);
      const notices = await fromOrigin(SITE, "GET", "/api/v1/notices");
      expect(notices.headers.get("access-control-allow-origin")).toBe(SITE);
      const removed = await fromOrigin(SITE, "DELETE", "/api/v1/subscriptions", { endpoint: sub.endpoint, auth: sub.keys.auth });
      expect(removed.status).toBe(204);
      expect(removed.headers.get("access-control-allow-origin")).toBe(SITE);
    });

    it("answers the notices stream to a registered site with its CORS grant", async () => {
      const controller = new AbortController();
      const res = await fetch(`${server.url}/api/v1/notices/stream`, { headers: { origin: SITE }, signal: controller.signal });
      try {
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toContain("text/event-stream");
        expect(res.headers.get("access-control-allow-origin")).toBe(SITE);
      } finally {
        controller.abort();
      }
    });

    it("attributes a registration without a key to the registered site it comes from, and one from Sino's own page to Sino", async () => {
      const fromSite = aBrowserSubscription();
      expect((await fromOrigin(SITE, "POST", "/api/v1/subscriptions", fromSite)).status).toBe(201);
      expect(await siteIdOfRow(fromSite.endpoint)).toBe(Number(siteId));
      const own = aBrowserSubscription();
      expect((await new ApiClient(server).post("/api/v1/subscriptions", own)).status).toBe(201);
      const builtIn = (await admin.get("/api/v1/sites")).body.sites.find((s: { builtIn: boolean }) => s.builtIn);
      expect(await siteIdOfRow(own.endpoint)).toBe(Number(builtIn.id));
    });

    it("refuses any other Origin with 403 origin_not_allowed, preflight included, and stores nothing", async () => {
      const before = await subscriptionCount();
      const pre = await preflight(STRANGER, "/api/v1/subscriptions");
      expect(pre.status).toBe(403);
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      expect(await pre.json()).toEqual(errorOf("origin_not_allowed"));

      const posted = await fromOrigin(STRANGER, "POST", "/api/v1/subscriptions", { ...aBrowserSubscription(), site: siteKey });
      expect(posted).toMatchObject({ status: 403, body: errorOf("origin_not_allowed") });
      expect(posted.headers.get("access-control-allow-origin")).toBeNull();
      expect((await fromOrigin("null", "POST", "/api/v1/subscriptions", aBrowserSubscription())).body).toEqual(errorOf("origin_not_allowed"));
      expect(await subscriptionCount()).toBe(before);
    });

    it("lets an unregistered page read why its configuration is refused, and nothing else", async () => {
      // The embed's first call: a simple GET (no preflight). The page may read the 403 and its
      // pt-BR reason naming Painel → Sites, so the bell can say it in the console.
      const config = await fromOrigin(STRANGER, "GET", "/api/v1/config?site=whatever");
      expect(config).toMatchObject({ status: 403, body: errorOf("origin_not_allowed") });
      expect(config.body.error.message).toContain("Painel → Sites");
      expect(config.headers.get("access-control-allow-origin")).toBe(STRANGER);
      expect(config.headers.get("vary")).toMatch(/Origin/);
      expect(config.headers.get("access-control-allow-methods")).toBeNull();
      // Not an opaque origin (a sandboxed frame could be anyone), not a preflight, not a write, not a read of notices.
      expect((await fromOrigin("null", "GET", "/api/v1/config")).headers.get("access-control-allow-origin")).toBeNull();
      expect((await preflight(STRANGER, "/api/v1/config", "GET")).headers.get("access-control-allow-origin")).toBeNull();
      const posted = await fromOrigin(STRANGER, "POST", "/api/v1/subscriptions", aBrowserSubscription());
      expect(posted.headers.get("access-control-allow-origin")).toBeNull();
      const notices = await fromOrigin(STRANGER, "GET", "/api/v1/notices");
      expect(notices.status).toBe(403);
      expect(notices.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("warns when an https site's snippet would load Sino over plain http, in GET /sites", async () => {
      // This server's public URL is https: no warning for any site.
      expect((await admin.get("/api/v1/sites")).body.sites.every((s: { snippetWarning?: string }) => s.snippetWarning === undefined)).toBe(true);
      const plain = await startOperatorServer({ dialect, env: { ...ENV, SINO_PUBLIC_URL: "http://localhost:8080" } });
      try {
        const plainAdmin = await setUpAdmin(plain);
        expect((await plainAdmin.post("/api/v1/sites", { origin: SITE })).body.site.snippetWarning).toContain("http://localhost:8080");
        expect((await plainAdmin.post("/api/v1/sites", { origin: "http://localhost:3000" })).body.site.snippetWarning).toBeUndefined();
        const listed = (await plainAdmin.get("/api/v1/sites")).body.sites as { origin: string; builtIn: boolean; snippetWarning?: string }[];
        const warned = Object.fromEntries(listed.map((s) => [s.origin, s.snippetWarning]));
        expect(warned[SITE]).toMatch(/https.*SINO_PUBLIC_URL/);
        expect(warned["http://localhost:3000"]).toBeUndefined();
        expect(listed.find((s) => s.builtIn)?.snippetWarning).toBeUndefined();
      } finally {
        await plain.close();
      }
    });

    it("grants no CORS on the operators' API, even to a registered site", async () => {
      const pre = await preflight(SITE, "/api/v1/sites");
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      expect(pre.status).not.toBe(204);
      const listed = await fromOrigin(SITE, "GET", "/api/v1/sites");
      expect(listed.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("refuses a site key used from another origin (site_origin_mismatch) and an unknown key, storing nothing", async () => {
      const before = await subscriptionCount();
      expect(await fromOrigin(OTHER_SITE, "POST", "/api/v1/subscriptions", { ...aBrowserSubscription(), site: siteKey })).toMatchObject({
        status: 403,
        body: errorOf("site_origin_mismatch", "site"),
      });
      // Sino's own page with another site's key.
      expect((await new ApiClient(server).post("/api/v1/subscriptions", { ...aBrowserSubscription(), site: siteKey })).body).toEqual(
        errorOf("site_origin_mismatch", "site"),
      );
      expect(await fromOrigin(SITE, "POST", "/api/v1/subscriptions", { ...aBrowserSubscription(), site: "nao-existe" })).toMatchObject({
        status: 404,
        body: errorOf("site_not_found", "site"),
      });
      expect(await fromOrigin(SITE, "GET", "/api/v1/config?site=nao-existe")).toMatchObject({ status: 404, body: errorOf("site_not_found", "site") });
      expect(await subscriptionCount()).toBe(before);
    });

    it("lets a registered site's public calls through the CSRF guard but still guards the operators' routes", async () => {
      const cookie = `${admin.cookieName}=${admin.session}`;
      const sub = aBrowserSubscription();
      expect((await fromOrigin(SITE, "POST", "/api/v1/subscriptions", { ...sub, site: siteKey }, { cookie })).status).toBe(201);
      expect(await fromOrigin(SITE, "POST", "/api/v1/channels", { slug: "x", name: "X" }, { cookie })).toMatchObject({ status: 403, body: errorOf("csrf_rejected") });
      expect((await fromOrigin(SITE, "DELETE", `/api/v1/sites/${siteId}`, undefined, { cookie })).body).toEqual(errorOf("csrf_rejected"));
    });

    it("filters the subscribers list, the overview and the stats by site", async () => {
      const onSite = Number((await admin.get("/api/v1/sites")).body.sites.find((s: { id: string }) => s.id === siteId).subscribers);
      expect(onSite).toBeGreaterThan(0);
      const total = (await admin.get("/api/v1/subscribers")).body.total;
      expect(total).toBeGreaterThan(onSite);
      expect((await admin.get(`/api/v1/subscribers?site=${siteId}`)).body.total).toBe(onSite);
      const stats = (await admin.get(`/api/v1/stats?days=2&site=${siteId}`)).body;
      expect(stats.subscribersOverTime.at(-1).total).toBe(onSite);
      expect((await admin.get("/api/v1/stats?days=2")).body.subscribersOverTime.at(-1).total).toBe(total);
    });

    it("deletes a site with its subscribers (logged as removals), then refuses its origin; Sino's own cannot go", async () => {
      const sites = (await admin.get("/api/v1/sites")).body.sites;
      const site = sites.find((s: { id: string }) => s.id === siteId);
      const builtIn = sites.find((s: { builtIn: boolean }) => s.builtIn);
      const before = await subscriptionCount();

      expect(await admin.delete(`/api/v1/sites/${builtIn.id}`)).toMatchObject({ status: 409, body: errorOf("site_built_in") });
      const deleted = await admin.delete(`/api/v1/sites/${siteId}`);
      expect(deleted).toMatchObject({ status: 200, body: { removedSubscribers: site.subscribers } });
      expect(await subscriptionCount()).toBe(before - site.subscribers);
      const stats = (await admin.get("/api/v1/stats?days=1")).body.subscribersOverTime.at(-1);
      expect(stats.removed).toBeGreaterThanOrEqual(site.subscribers);
      expect(await admin.delete(`/api/v1/sites/${siteId}`)).toMatchObject({ status: 404, body: errorOf("site_not_found") });

      // The cache was invalidated: the origin is refused at once.
      expect((await preflight(SITE, "/api/v1/subscriptions")).status).toBe(403);
      expect((await fromOrigin(SITE, "POST", "/api/v1/subscriptions", aBrowserSubscription())).body).toEqual(errorOf("origin_not_allowed"));
    });
  });

  describe(`limits on registrations from sites on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: { ...ENV, SINO_SITE_SUBSCRIBE_RATE_LIMIT: "4", SINO_SITE_MAX_SUBSCRIPTIONS: "2" } });
      admin = await setUpAdmin(server);
    });
    afterAll(async () => {
      await server.close();
    });

    async function register(origin: string, body: unknown) {
      const res = await fetch(`${server.url}/api/v1/subscriptions`, { method: "POST", headers: { origin, "content-type": "application/json" }, body: JSON.stringify(body) });
      return { status: res.status, headers: res.headers, body: await res.json() };
    }

    it("caps a site's subscriptions (a known browser may still register again), then rate-limits the address; Sino's own page has neither", async () => {
      const site = (await admin.post("/api/v1/sites", { origin: SITE })).body.site;
      const first = aBrowserSubscription();
      expect((await register(SITE, { ...first, site: site.key })).status).toBe(201);
      expect((await register(SITE, { ...aBrowserSubscription(), site: site.key })).status).toBe(201);
      expect(await register(SITE, { ...aBrowserSubscription(), site: site.key })).toMatchObject({ status: 403, body: limitErrorOf("site_subscription_cap", "site", "siteSubscriptions", 2) });
      expect((await register(SITE, { ...first, site: site.key })).status).toBe(200);
      const count = await server.database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(2);

      // That was four registrations from this address in the minute: the fifth is refused.
      const limited = await register(SITE, { ...first, site: site.key });
      expect(limited).toMatchObject({ status: 429, body: errorOf("site_rate_limited") });
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);

      // Sino's own page: neither the cap nor the limit (as before sites existed).
      for (let i = 0; i < 3; i++) expect((await new ApiClient(server).post("/api/v1/subscriptions", aBrowserSubscription())).status).toBe(201);
    });
  });

  describe(`sends narrowed to a site over the API on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;

    beforeAll(async () => {
      server = await startTestServer({
        dialect,
        env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50", SINO_ENCRYPTION_THREADS: "0", SINO_PUSH_TIMEOUT_MS: "5000" },
      });
      admin = await setUpAdmin({ url: server.url, origin: server.url });
    });
    afterAll(async () => {
      await server.close();
    });

    it("reaches only the chosen site's subscribers, shows the site in the send, counts them in the overview, and refuses an unknown site", async () => {
      fake().reset();
      const ids = await seedSubscriptions(server.database, fake(), 12, `${dialect}-sites-`);
      const site = (await admin.post("/api/v1/sites", { origin: SITE })).body.site;
      const rows = await server.database.db.selectFrom("subscriptions").select("id").orderBy("id").execute();
      await server.database.db
        .updateTable("subscriptions")
        .set({ site_id: Number(site.id) })
        .where("id", "in", rows.slice(0, 5).map((r) => Number(r.id)))
        .execute();

      expect((await admin.get("/api/v1/overview")).body.subscribers.total).toBe(12);
      expect((await admin.get(`/api/v1/overview?site=${site.id}`)).body.subscribers.total).toBe(5);

      const res = await admin.post("/api/v1/notifications", { title: "Só no site", audience: { type: "all", sites: [site.id] } });
      expect(res.status).toBe(201);
      expect(res.body.notification.audience).toEqual({ type: "all", sites: [site.id] });
      const done = await waitForNotification(() => server.delivery.getNotification(Number(res.body.notification.id)));
      expect(done.counts).toMatchObject({ queued: 5, accepted: 5 });
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual(ids.slice(0, 5).sort());

      expect(await admin.post("/api/v1/notifications", { title: "x", audience: { type: "all", sites: ["999999"] } })).toMatchObject({
        status: 400,
        body: errorOf("audience_site_not_found", "audience.sites"),
      });
      expect((await admin.post("/api/v1/notifications", { title: "x", audience: { type: "all", sites: ["abc"] } })).body.error.code).toBe("audience_site_not_found");
    });
  });
}
