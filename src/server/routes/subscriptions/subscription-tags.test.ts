/**
 * Tags that come through the page, on SQLite and PostgreSQL: trusted tags only when signed with
 * the person's identity (over the id and the tags), even on a site that does not verify ids, so an
 * unsigned page call can never change a trusted tag; visitor tags with proof of possession, only
 * where the site accepts them, never on the person; and what a registration records besides
 * (time zone, browser, platform).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { errorOf, setUpAdmin, startOperatorServer, type ApiClient, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import type { PushSubscriptionJson } from "../../../shared/api/subscriptions.js";
import type { Tags } from "../../../shared/api/tag-rule.js";
import { signUser, signUserId, signedUserPayload } from "../../people/person-identity.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com" };
const SITE = "https://www.exemplo.com.br";
const OPEN_SITE = "https://aberto.exemplo.com.br";
const FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0";

for (const dialect of DIALECTS) {
  describe(`tags from the page on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    const site = { id: "", key: "", secret: "" };
    const open = { id: "", key: "", secret: "" };

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV });
      admin = await setUpAdmin(server);
      for (const [target, origin] of [
        [site, SITE],
        [open, OPEN_SITE],
      ] as const) {
        const created = await admin.post("/api/v1/sites", { origin });
        target.id = created.body.site.id;
        target.key = created.body.site.key;
        target.secret = (await admin.post(`/api/v1/sites/${target.id}/identity-secret`)).body.secret;
      }
      // The open site does not verify ids: any id is accepted there, but never unsigned tags.
      expect((await admin.patch(`/api/v1/sites/${open.id}`, { identityVerification: false })).body.site.identity.verification).toBe(false);
    });
    afterAll(async () => {
      await server.close();
    });

    async function call(method: string, path: string, body: unknown, origin: string, headers: Record<string, string> = {}) {
      const res = await fetch(server.url + path, { method, headers: { "content-type": "application/json", origin, ...headers }, body: JSON.stringify(body) });
      const text = await res.text();
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reads JSON freely
      return { status: res.status, body: (text === "" ? undefined : JSON.parse(text)) as any };
    }
    type Claim = { id: string; signature?: string; tags?: Tags };
    function register(sub: PushSubscriptionJson, on: typeof site, extra: { user?: Claim; timeZone?: string } = {}, headers: Record<string, string> = {}) {
      return call("POST", "/api/v1/subscriptions", { ...sub, site: on.key, ...extra }, on === site ? SITE : OPEN_SITE, headers);
    }
    const proof = (sub: PushSubscriptionJson) => ({ endpoint: sub.endpoint, auth: sub.keys.auth });
    async function personTags(personId: string) {
      return (await admin.get(`/api/v1/people/${encodeURIComponent(personId)}/tags`)).body.tags as Tags;
    }
    async function exists(endpoint: string) {
      return (await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", endpoint).executeTakeFirst()) !== undefined;
    }

    it("signs the id alone without tags, and the id with the canonical tags with them", () => {
      expect(signedUserPayload("ana")).toBe("ana");
      expect(signedUserPayload("ana", { vip: true, plano: "premium", idade: 30 })).toBe("ana\nidade=30\nplano=premium\nvip");
      expect(signUser("s", "ana")).toBe(signUserId("s", "ana"));
    });

    it("merges signed trusted tags at registration and refuses tags the signature does not cover, storing nothing", async () => {
      const tags: Tags = { plano: "premium", idade: 30, vip: true };
      const sub = aBrowserSubscription();
      const res = await register(sub, site, { user: { id: "ana", signature: signUser(site.secret, "ana", tags), tags } });
      expect(res.status).toBe(201);
      expect(await personTags("ana")).toEqual({ idade: 30, plano: "premium", vip: true });

      // A signature of the id alone, or of other tags, does not cover these tags.
      const forged = aBrowserSubscription();
      for (const signature of [signUserId(site.secret, "ana"), signUser(site.secret, "ana", { plano: "premium" }), signUser(open.secret, "ana", { plano: "ouro" })]) {
        expect(await register(forged, site, { user: { id: "ana", signature, tags: { plano: "ouro" } } })).toMatchObject({
          status: 403,
          body: errorOf("user_signature_invalid", "user.signature"),
        });
      }
      expect(await exists(forged.endpoint)).toBe(false);
      expect(await personTags("ana")).toEqual({ idade: 30, plano: "premium", vip: true });

      // Merge: other tags stay.
      const later = { plano: "básico" };
      expect((await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), user: { id: "ana", signature: signUser(site.secret, "ana", later), tags: later } }, SITE)).status).toBe(200);
      expect(await personTags("ana")).toEqual({ idade: 30, plano: "básico", vip: true });
    });

    it("never lets an unsigned page call change a trusted tag, even where ids are not verified", async () => {
      await admin.request("PUT", "/api/v1/people/bia/tags", { tags: { plano: "básico" } });
      // Ids alone are accepted unsigned here…
      const sub = aBrowserSubscription();
      expect((await register(sub, open, { user: { id: "bia" } })).status).toBe(201);
      // …but tags are not, at registration or later.
      const other = aBrowserSubscription();
      expect(await register(other, open, { user: { id: "bia", tags: { plano: "premium" } } })).toMatchObject({
        status: 403,
        body: errorOf("user_signature_required", "user.signature"),
      });
      expect(await exists(other.endpoint)).toBe(false);
      expect(await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), user: { id: "bia", tags: { plano: "premium" } } }, OPEN_SITE)).toMatchObject({
        status: 403,
        body: errorOf("user_signature_required", "user.signature"),
      });
      expect(
        (await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), user: { id: "bia", signature: "ab".repeat(32), tags: { plano: "premium" } } }, OPEN_SITE)).body,
      ).toEqual(errorOf("user_signature_invalid", "user.signature"));
      // Visitor tags with the same key stay on the subscription.
      expect((await call("PUT", "/api/v1/subscriptions/tags", { ...proof(sub), tags: { plano: "premium" } }, OPEN_SITE)).body).toEqual({ tags: { plano: "premium" } });
      expect(await personTags("bia")).toEqual({ plano: "básico" });
      // Signed, they are taken.
      const tags = { plano: "premium" };
      expect((await call("PUT", "/api/v1/subscriptions/user", { ...proof(sub), user: { id: "bia", signature: signUser(open.secret, "bia", tags), tags } }, OPEN_SITE)).status).toBe(200);
      expect(await personTags("bia")).toEqual({ plano: "premium" });
    });

    it("refuses signed tags that would leave the person with more than 100, storing nothing", async () => {
      const full = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`t${i}`, i]));
      await admin.request("PUT", "/api/v1/people/caio/tags", { tags: full });
      const tags: Tags = { extra: true };
      const sub = aBrowserSubscription();
      expect((await register(sub, site, { user: { id: "caio", signature: signUser(site.secret, "caio", tags), tags } })).body).toEqual(errorOf("too_many_tags", "user.tags"));
      expect(await exists(sub.endpoint)).toBe(false);
    });

    it("merges visitor tags with proof, removes them with null, and refuses them where the site has them off", async () => {
      const sub = aBrowserSubscription();
      expect((await register(sub, site)).status).toBe(201);
      const put = (tags: unknown, p: object = proof(sub)) => call("PUT", "/api/v1/subscriptions/tags", { ...p, tags }, SITE);
      expect((await put({ bairro: "Centro", visitas: 3, tema: "escuro" })).body).toEqual({ tags: { bairro: "Centro", tema: "escuro", visitas: 3 } });
      expect((await put({ tema: null, visitas: 4 })).body).toEqual({ tags: { bairro: "Centro", visitas: 4 } });
      expect((await put({ a: 1 }, { endpoint: sub.endpoint, auth: aBrowserSubscription().keys.auth })).body).toEqual(errorOf("subscription_auth_mismatch", "auth"));
      expect((await put({ a: 1 }, proof(aBrowserSubscription()))).status).toBe(404);
      expect((await put({ Bairro: "x" })).body).toEqual(errorOf("tag_key_invalid", "tags.Bairro"));
      expect((await put({ bairro: " x" })).body).toEqual(errorOf("tag_value_invalid", "tags.bairro"));

      const off = await admin.patch(`/api/v1/sites/${site.id}`, { visitorTags: false });
      expect(off.body.site).toMatchObject({ visitorTags: false, identity: { verification: true } });
      expect(await put({ bairro: "Cambuí" })).toMatchObject({ status: 403, body: errorOf("visitor_tags_disabled") });
      expect((await admin.patch(`/api/v1/sites/${site.id}`, { visitorTags: true })).body.site.visitorTags).toBe(true);
      expect((await admin.patch(`/api/v1/sites/${site.id}`, {})).status).toBe(400);
      expect((await put({ bairro: "Cambuí" })).body.tags.bairro).toBe("Cambuí");
      const rows = await server.database.db.selectFrom("subscription_tags").select(["key"]).innerJoin("subscriptions", "subscriptions.id", "subscription_tags.subscription_id").where("endpoint", "=", sub.endpoint).execute();
      expect(rows.map((r) => r.key).sort()).toEqual(["bairro", "visitas"]);
    });

    it("shows trusted and visitor tags apart on the person's page and in the subscribers list", async () => {
      const tags = { plano: "premium" };
      const sub = aBrowserSubscription();
      await register(sub, site, { user: { id: "duda", signature: signUser(site.secret, "duda", tags), tags }, timeZone: "America/Manaus" });
      await call("PUT", "/api/v1/subscriptions/tags", { ...proof(sub), tags: { tema: "escuro" } }, SITE);
      const person = (await admin.get("/api/v1/people/duda")).body.person;
      expect(person.tags).toEqual({ plano: "premium" });
      expect(person.subscriptions).toMatchObject([{ timeZone: "America/Manaus", visitorTags: { tema: "escuro" } }]);
      const listed = (await admin.get("/api/v1/subscribers?user=duda")).body.subscribers;
      expect(listed).toMatchObject([{ userId: "duda", timeZone: "America/Manaus", tags: { trusted: { plano: "premium" }, visitor: { tema: "escuro" } } }]);
      // Tagged before any browser of theirs subscribed: found, with no devices.
      await admin.request("PUT", "/api/v1/people/eva/tags", { tags: { vip: true } });
      expect((await admin.get("/api/v1/people/eva")).body.person).toEqual({ userId: "eva", tags: { vip: true }, subscriptions: [] });
    });

    it("records the time zone Intl knows, and the browser and platform from the User-Agent", async () => {
      const sub = aBrowserSubscription();
      expect((await register(sub, site, { timeZone: "America/Sao_Paulo" }, { "user-agent": FIREFOX_ANDROID })).status).toBe(201);
      const row = () => server.database.db.selectFrom("subscriptions").select(["time_zone", "browser", "platform"]).where("endpoint", "=", sub.endpoint).executeTakeFirstOrThrow();
      expect(await row()).toEqual({ time_zone: "America/Sao_Paulo", browser: "firefox", platform: "android" });
      // An unknown zone is ignored (not an error) and keeps the one known.
      expect((await register(sub, site, { timeZone: "Marte/Olympus" }, { "user-agent": FIREFOX_ANDROID })).status).toBe(200);
      expect((await row()).time_zone).toBe("America/Sao_Paulo");
      const other = aBrowserSubscription();
      expect((await register(other, site, { timeZone: "Marte/Olympus" })).status).toBe(201);
      expect((await server.database.db.selectFrom("subscriptions").select("time_zone").where("endpoint", "=", other.endpoint).executeTakeFirstOrThrow()).time_zone).toBeNull();
    });
  });
}
