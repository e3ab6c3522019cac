/**
 * People on subscriptions over HTTP, on SQLite and PostgreSQL: a site's identity secret (generated,
 * rotated with a grace period, verification switched off with a warning), the user id rules, the
 * signature (missing, wrong, another site's, upper-case hex, the previous secret in and after its
 * grace), identification at registration (a refusal stores nothing, not even the subscription),
 * PUT/DELETE /subscriptions/user with proof, the last identification winning, forget keeping the
 * channels, and the webhook events each change queues.
 */
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { addUser, errorOf, setUpAdmin, startOperatorServer, type ApiClient, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import { ptBR } from "../../../shared/i18n/catalog.js";
import type { PushSubscriptionJson } from "../../../shared/api/subscriptions.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com", SINO_IDENTITY_SECRET_GRACE_HOURS: "24" };
const SITE = "https://www.exemplo.com.br";
const OTHER_SITE = "https://loja.exemplo.com.br";
const HOUR = 3_600_000;

const sign = (secret: string, userId: string) => createHmac("sha256", secret).update(userId, "utf8").digest("hex");

for (const dialect of DIALECTS) {
  describe(`people on subscriptions on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let clock = Date.parse("2026-11-20T12:00:00Z");
    const site = { id: "", key: "", secret: "" };
    const other = { id: "", key: "", secret: "" };

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV, now: () => clock });
      admin = await setUpAdmin(server);
      for (const [target, origin] of [
        [site, SITE],
        [other, OTHER_SITE],
      ] as const) {
        const created = await admin.post("/api/v1/sites", { origin });
        target.id = created.body.site.id;
        target.key = created.body.site.key;
      }
      // Every webhook event is queued while a webhook that wants it exists.
      await server.database.db
        .insertInto("webhooks")
        .values({
          url: "https://hooks.exemplo.com.br/sino",
          description: null,
          events: JSON.stringify(["subscription.created", "subscription.removed", "person.identified", "person.forgotten"]),
          secret: "whsec_dGVzdA==",
          created_at: clock,
          updated_at: clock,
        })
        .execute();
    });
    afterAll(async () => {
      await server.close();
    });

    async function call(method: string, path: string, body: unknown, origin: string | undefined = SITE) {
      const res = await fetch(server.url + path, {
        method,
        headers: { "content-type": "application/json", ...(origin === undefined ? {} : { origin }) },
        body: JSON.stringify(body),
      });
      const text = await res.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads JSON freely
      return { status: res.status, body: (text === "" ? undefined : JSON.parse(text)) as any };
    }
    function register(sub: PushSubscriptionJson, user?: { id: string; signature?: string }, on = site, origin = SITE) {
      return call("POST", "/api/v1/subscriptions", { ...sub, site: on.key, ...(user === undefined ? {} : { user }) }, origin);
    }
    const proof = (sub: PushSubscriptionJson) => ({ endpoint: sub.endpoint, auth: sub.keys.auth });
    async function rowOf(endpoint: string) {
      return server.database.db.selectFrom("subscriptions").select(["person_id", "identified_at", "site_id"]).where("endpoint", "=", endpoint).executeTakeFirst();
    }
    async function subscriptionCount(): Promise<number> {
      const row = await server.database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow();
      return Number(row.n);
    }
    /** The webhook events queued since the last call. */
    let seenMessages = 0;
    async function newEvents(): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
      const rows = await server.database.db.selectFrom("webhook_messages").select(["id", "payload"]).where("id", ">", seenMessages).orderBy("id").execute();
      if (rows.length > 0) seenMessages = Number(rows.at(-1)!.id);
      return rows.map((r) => JSON.parse(r.payload) as { type: string; data: Record<string, unknown> });
    }

    it("refuses every identification on a verifying site until an admin generates its secret, storing nothing", async () => {
      const listed = (await admin.get("/api/v1/sites")).body.sites.find((s: { id: string }) => s.id === site.id);
      expect(listed.identity).toEqual({ verification: true, hasSecret: false, rotatedAt: null, previousValidUntil: null });
      const before = await subscriptionCount();
      expect(await register(aBrowserSubscription(), { id: "cliente-1", signature: "ab".repeat(32) })).toMatchObject({
        status: 409,
        body: errorOf("site_identity_secret_missing", "user.signature"),
      });
      expect(await subscriptionCount()).toBe(before);
      expect(await newEvents()).toEqual([]);
    });

    it("generates a 64-hex secret shown once (admin only), and the first has no previous one", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.post(`/api/v1/sites/${site.id}/identity-secret`)).status).toBe(403);
      expect((await admin.post("/api/v1/sites/999999/identity-secret")).status).toBe(404);

      const generated = await admin.post(`/api/v1/sites/${site.id}/identity-secret`);
      expect(generated.status).toBe(200);
      expect(generated.headers.get("cache-control")).toBe("no-store");
      expect(generated.body.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(generated.body.site.identity).toEqual({ verification: true, hasSecret: true, rotatedAt: new Date(clock).toISOString(), previousValidUntil: null });
      site.secret = generated.body.secret;
      other.secret = (await admin.post(`/api/v1/sites/${other.id}/identity-secret`)).body.secret;
      expect(other.secret).not.toBe(site.secret);
      // Never again: the list shows only that there is one.
      expect(JSON.stringify((await admin.get("/api/v1/sites")).body)).not.toContain(site.secret);
    });

    it("refuses malformed user ids with user_id_invalid and stores nothing", async () => {
      const before = await subscriptionCount();
      for (const id of ["", "x".repeat(129), "tab\there", "nul\u0000", "c1\u0085", "linha\u2028separada", "par\u2029", " espaço", "espaço "]) {
        const res = await register(aBrowserSubscription(), { id, signature: sign(site.secret, id) });
        expect(res.status, JSON.stringify(id)).toBe(400);
        expect(res.body.error.code, JSON.stringify(id)).toBe("user_id_invalid");
      }
      expect(await subscriptionCount()).toBe(before);
      // 128 characters, any script, is fine.
      const longest = "é".repeat(128);
      expect((await register(aBrowserSubscription(), { id: longest, signature: sign(site.secret, longest) })).status).toBe(201);
    });

    it("refuses a missing, wrong, malformed or other-site signature without storing the subscription", async () => {
      const before = await subscriptionCount();
      const id = "cliente-42";
      const cases: Array<[string | undefined, string]> = [
        [undefined, "user_signature_required"],
        ["", "user_signature_required"],
        [sign(site.secret, "cliente-43"), "user_signature_invalid"],
        [sign(other.secret, id), "user_signature_invalid"],
        [sign(site.secret, id).slice(0, 62), "user_signature_invalid"],
        [`${sign(site.secret, id)}00`, "user_signature_invalid"],
        ["zz".repeat(32), "user_signature_invalid"],
      ];
      for (const [signature, code] of cases) {
        const sub = aBrowserSubscription();
        const res = await register(sub, { id, ...(signature === undefined ? {} : { signature }) });
        expect(res, String(signature)).toMatchObject({ status: 403, body: errorOf(code as never, "user.signature") });
        expect(await rowOf(sub.endpoint)).toBeUndefined();
      }
      expect(await subscriptionCount()).toBe(before);
      // The other site's own signature works on a subscription of the other site only.
      const there = await register(aBrowserSubscription(), { id, signature: sign(other.secret, id) }, other, OTHER_SITE);
      expect(there.status).toBe(201);
      expect(there.body.subscription.userId).toBe(id);
      await newEvents();
    });

    it("identifies at registration with an upper-case signature, queueing subscription.created and person.identified", async () => {
      const sub = aBrowserSubscription();
      const res = await register(sub, { id: "Cliente-A", signature: sign(site.secret, "Cliente-A").toUpperCase() });
      expect(res.status).toBe(201);
      expect(res.body.subscription).toMatchObject({ userId: "Cliente-A" });
      const row = await rowOf(sub.endpoint);
      expect(row).toMatchObject({ person_id: "Cliente-A", site_id: Number(site.id) });
      expect(Number(row!.identified_at)).toBe(clock);
      const events = await newEvents();
      expect(events.map((e) => [e.type, e.data.userId])).toEqual([
        ["subscription.created", "Cliente-A"],
        ["person.identified", "Cliente-A"],
      ]);
      expect(events[1]!.data).toEqual({ subscriptionId: res.body.subscription.id, userId: "Cliente-A", siteId: site.id });

      // The next visit's re-registration as the same person changes nothing and queues nothing.
      const again = await register(sub, { id: "Cliente-A", signature: sign(site.secret, "Cliente-A") });
      expect(again.status).toBe(200);
      expect(await newEvents()).toEqual([]);
      // Case-sensitive: another person.
      expect((await register(aBrowserSubscription(), { id: "cliente-a", signature: sign(site.secret, "Cliente-A") })).status).toBe(403);
    });

    it("moves a subscription to whoever signs in last, and forgets it keeping its channels, with proof", async () => {
      const sub = aBrowserSubscription();
      const created = await register(sub, { id: "ana", signature: sign(site.secret, "ana") });
      const channelsBefore = created.body.subscription.channels;
      await newEvents();

      expect(await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), auth: aBrowserSubscription().keys.auth, user: { id: "bia", signature: sign(site.secret, "bia") } })).toMatchObject({
        status: 403,
        body: errorOf("subscription_auth_mismatch", "auth"),
      });
      expect(await call("PUT", "/api/v1/subscriptions/user", { ...proof(aBrowserSubscription()), user: { id: "bia", signature: sign(site.secret, "bia") } })).toMatchObject({
        status: 404,
        body: errorOf("subscription_not_found", "endpoint"),
      });
      expect((await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), user: { id: "bia", signature: sign(other.secret, "bia") } })).status).toBe(403);
      expect((await rowOf(sub.endpoint))!.person_id).toBe("ana");

      const moved = await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), user: { id: "bia", signature: sign(site.secret, "bia") } });
      expect(moved.status).toBe(200);
      expect(moved.body.subscription).toMatchObject({ id: created.body.subscription.id, userId: "bia", channels: channelsBefore });
      expect((await newEvents()).map((e) => [e.type, e.data.userId])).toEqual([
        ["person.forgotten", "ana"],
        ["person.identified", "bia"],
      ]);

      const forgotten = await call("DELETE", "/api/v1/subscriptions/user", proof(sub));
      expect(forgotten.status).toBe(200);
      expect(forgotten.body.subscription).toMatchObject({ userId: null, channels: channelsBefore });
      expect(await rowOf(sub.endpoint)).toMatchObject({ person_id: null, identified_at: null });
      expect((await newEvents()).map((e) => [e.type, e.data.userId])).toEqual([["person.forgotten", "bia"]]);
      // Forgetting an anonymous subscription is not an event.
      expect((await call("DELETE", "/api/v1/subscriptions/user", proof(sub))).status).toBe(200);
      expect(await newEvents()).toEqual([]);
    });

    it("accepts the previous secret during its grace period and refuses it after", async () => {
      const old = site.secret;
      clock += HOUR;
      const rotated = await admin.post(`/api/v1/sites/${site.id}/identity-secret`);
      site.secret = rotated.body.secret;
      expect(site.secret).not.toBe(old);
      expect(rotated.body.site.identity).toMatchObject({ rotatedAt: new Date(clock).toISOString(), previousValidUntil: new Date(clock + 24 * HOUR).toISOString() });

      clock += 23 * HOUR;
      expect((await register(aBrowserSubscription(), { id: "carla", signature: sign(old, "carla") })).status).toBe(201);
      expect((await register(aBrowserSubscription(), { id: "carla", signature: sign(site.secret, "carla") })).status).toBe(201);

      clock += HOUR;
      const sub = aBrowserSubscription();
      expect(await register(sub, { id: "carla", signature: sign(old, "carla") })).toMatchObject({ status: 403, body: errorOf("user_signature_invalid", "user.signature") });
      expect(await rowOf(sub.endpoint)).toBeUndefined();
      expect((await register(sub, { id: "carla", signature: sign(site.secret, "carla") })).status).toBe(201);
      const listed = (await admin.get("/api/v1/sites")).body.sites.find((s: { id: string }) => s.id === site.id);
      expect(listed.identity.previousValidUntil).toBeNull();
      await newEvents();
    });

    it("accepts any valid id on a site with verification off, and says why that is risky", async () => {
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.patch(`/api/v1/sites/${other.id}`, { identityVerification: false })).status).toBe(403);
      expect((await admin.patch(`/api/v1/sites/${other.id}`, { identityVerification: "não" })).status).toBe(400);
      expect((await admin.patch("/api/v1/sites/999999", { identityVerification: false })).status).toBe(404);

      const off = await admin.patch(`/api/v1/sites/${other.id}`, { identityVerification: false });
      expect(off.status).toBe(200);
      expect(off.body.site.identity).toMatchObject({ verification: false, hasSecret: true, warning: ptBR.sites.identity.warning });
      const sub = aBrowserSubscription();
      const res = await register(sub, { id: "sem-assinatura" }, other, OTHER_SITE);
      expect(res.status).toBe(201);
      expect(res.body.subscription.userId).toBe("sem-assinatura");
      // Still a valid id.
      expect((await register(aBrowserSubscription(), { id: "" }, other, OTHER_SITE)).body.error.code).toBe("user_id_invalid");

      const on = await admin.patch(`/api/v1/sites/${other.id}`, { identityVerification: true });
      expect(on.body.site.identity.warning).toBeUndefined();
      expect((await register(aBrowserSubscription(), { id: "sem-assinatura" }, other, OTHER_SITE)).status).toBe(403);
      await newEvents();
    });

    it("queues subscription.removed with its reason and person when a browser unsubscribes", async () => {
      const sub = aBrowserSubscription();
      const created = await register(sub, { id: "dora", signature: sign(site.secret, "dora") });
      await newEvents();
      const removed = await call("DELETE", "/api/v1/subscriptions", proof(sub));
      expect(removed.status).toBe(204);
      expect((await newEvents()).map((e) => e.data)).toEqual([
        { subscriptionId: created.body.subscription.id, userId: "dora", siteId: site.id, reason: "unsubscribed" },
      ]);
      // An admin deleting the site removes its subscriptions, each an event.
      const before = Number((await server.database.db.selectFrom("subscriptions").select((eb) => eb.fn.countAll<number | string>().as("n")).where("site_id", "=", Number(other.id)).executeTakeFirstOrThrow()).n);
      expect((await admin.delete(`/api/v1/sites/${other.id}`)).status).toBe(200);
      const events = await newEvents();
      expect(events).toHaveLength(before);
      expect(events.every((e) => e.type === "subscription.removed" && e.data.reason === "operator" && e.data.siteId === other.id)).toBe(true);
    });
  });
}
