/**
 * LGPD over HTTP and the CLI, on SQLite and PostgreSQL: the consent a registration carries (a bad
 * one refuses the registration, nothing stored), "Meus dados" and "Apagar meus dados" with proof
 * of possession, the admin's export (with the counts a confirmation shows) and erasure by
 * subscription and by person. `sino privacy` is tested in src/cli/privacy.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { addUser, errorOf, setUpAdmin, startOperatorServer, type ApiClient, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import type { PushSubscriptionJson } from "../../../shared/api/subscriptions.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com" };
const SITE = "https://www.exemplo.com.br";
const CONSENT = { source: "bell", text: "Habilitar Notificações", version: "pt-BR-0a1b2c3d" } as const;

for (const dialect of DIALECTS) {
  describe(`privacy routes on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let siteKey = "";
    const clock = Date.parse("2026-11-20T12:00:00Z");

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV, now: () => clock });
      admin = await setUpAdmin(server);
      siteKey = (await admin.post("/api/v1/sites", { origin: SITE })).body.site.key;
    });
    afterAll(async () => {
      await server.close();
    });

    async function call(method: string, path: string, body: unknown, origin: string = SITE) {
      const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json", origin }, body: JSON.stringify(body) });
      const text = await res.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads JSON freely
      return { status: res.status, body: (text === "" ? undefined : JSON.parse(text)) as any };
    }
    const proof = (sub: PushSubscriptionJson) => ({ endpoint: sub.endpoint, auth: sub.keys.auth });
    const register = (sub: PushSubscriptionJson, extra: Record<string, unknown> = {}) => call("POST", "/api/v1/subscriptions", { ...sub, site: siteKey, consent: CONSENT, ...extra });

    it("records the consent given on the site's page with the registration, and refuses a malformed one storing nothing", async () => {
      const bad = aBrowserSubscription();
      expect(await register(bad, { consent: { source: "popup", text: "x", version: "1" } })).toEqual({ status: 400, body: errorOf("consent_invalid", "consent.source") });
      expect(await register(bad, { consent: { ...CONSENT, extra: 1 } })).toMatchObject({ status: 400 });
      expect(await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", bad.endpoint).executeTakeFirst()).toBeUndefined();

      const sub = aBrowserSubscription();
      expect((await register(sub)).status).toBe(201);
      const mine = await call("POST", "/api/v1/subscriptions/data", proof(sub));
      expect(mine.status).toBe(200);
      expect(mine.body.data.consent).toEqual({
        givenAt: new Date(clock).toISOString(),
        siteId: expect.any(String),
        pageOrigin: SITE,
        source: "bell",
        text: CONSENT.text,
        catalogueVersion: CONSENT.version,
        channels: [],
        endedAt: null,
        endReason: null,
      });
      expect(JSON.stringify(mine.body)).not.toContain(sub.keys.auth);
      expect(JSON.stringify(mine.body)).not.toContain(sub.keys.p256dh);
    });

    it("gives and erases a browser's own data only with proof of possession", async () => {
      const sub = aBrowserSubscription();
      await register(sub);
      const wrong = { endpoint: sub.endpoint, auth: aBrowserSubscription().keys.auth };
      expect(await call("POST", "/api/v1/subscriptions/data", wrong)).toEqual({ status: 403, body: errorOf("subscription_auth_mismatch", "auth") });
      expect(await call("DELETE", "/api/v1/subscriptions/data", wrong)).toEqual({ status: 403, body: errorOf("subscription_auth_mismatch", "auth") });
      const erased = await call("DELETE", "/api/v1/subscriptions/data", proof(sub));
      expect(erased).toMatchObject({ status: 200, body: { erased: { subscriptions: 1, consentRecords: 1 } } });
      expect(await call("POST", "/api/v1/subscriptions/data", proof(sub))).toEqual({ status: 404, body: errorOf("subscription_not_found", "endpoint") });
    });

    it("lets an admin export and erase by person and by subscription, with the counts first; a publisher may not", async () => {
      const phone = aBrowserSubscription();
      const laptop = aBrowserSubscription();
      const made = await register(phone);
      await register(laptop);
      for (const sub of [phone, laptop]) await admin.put("/api/v1/people/carla/subscriptions", { endpoint: sub.endpoint });

      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.get("/api/v1/privacy/people/carla")).status).toBe(403);
      expect((await publisher.delete("/api/v1/privacy/people/carla")).status).toBe(403);

      const exported = await admin.get("/api/v1/privacy/people/carla");
      expect(exported.status).toBe(200);
      expect(exported.body.counts).toMatchObject({ subscriptions: 2, consentRecords: 2 });
      expect(exported.body.data.subscriptions.map((s: { userId: string }) => s.userId)).toEqual(["carla", "carla"]);
      const one = await admin.get(`/api/v1/privacy/subscriptions/${made.body.subscription.id}`);
      expect(one.body).toMatchObject({ counts: { subscriptions: 1 }, data: { subscription: { endpoint: phone.endpoint }, userId: "carla" } });

      expect(await admin.delete(`/api/v1/privacy/subscriptions/${made.body.subscription.id}`)).toMatchObject({ status: 200, body: { erased: { subscriptions: 1 } } });
      expect(await admin.delete("/api/v1/privacy/people/carla")).toMatchObject({ status: 200, body: { erased: { subscriptions: 1 } } });
      expect(await admin.get("/api/v1/privacy/people/carla")).toEqual(expect.objectContaining({ status: 404, body: errorOf("person_not_found") }));
      expect((await admin.get("/api/v1/privacy/subscriptions/999999")).status).toBe(404);
      const log = await server.database.db.selectFrom("data_erasures").select(["requested_by", "scope", "rows"]).execute();
      expect(JSON.stringify(log)).not.toContain("carla");
    });
  });
}
