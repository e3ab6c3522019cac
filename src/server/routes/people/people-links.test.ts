/**
 * PUT / DELETE /people/:userId/subscriptions on SQLite and PostgreSQL: an integrator's server
 * links a subscription it knows by its endpoint to a person (no signature: it holds a token),
 * and unlinks it; publish and admin tokens and signed-in admins may, nobody else.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { aBrowserSubscription } from "../../../../test/support/subscriptions.js";
import type { PushSubscriptionJson } from "../../../shared/api/subscriptions.js";

const ENV = { SINO_PUSH_ALLOWED_HOSTS: "fcm.googleapis.com" };

for (const dialect of DIALECTS) {
  describe(`linking subscriptions to people on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let publishToken: ApiClient;

    beforeAll(async () => {
      server = await startOperatorServer({ dialect, env: ENV });
      admin = await setUpAdmin(server);
      publishToken = new ApiClient(server, { origin: null, bearer: (await addToken(admin, "publish")).secret });
      await server.database.db
        .insertInto("webhooks")
        .values({ url: "https://hooks.exemplo.com.br/sino", description: null, events: JSON.stringify(["person.identified", "person.forgotten"]), secret: "whsec_dGVzdA==", created_at: 1, updated_at: 1 })
        .execute();
    });
    afterAll(async () => {
      await server.close();
    });

    async function subscribed(): Promise<{ sub: PushSubscriptionJson; id: string }> {
      const sub = aBrowserSubscription();
      const res = await fetch(`${server.url}/api/v1/subscriptions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(sub) });
      return { sub, id: ((await res.json()) as { subscription: { id: string } }).subscription.id };
    }
    const path = (userId: string) => `/api/v1/people/${encodeURIComponent(userId)}/subscriptions`;
    async function personOf(endpoint: string) {
      return (await server.database.db.selectFrom("subscriptions").select("person_id").where("endpoint", "=", endpoint).executeTakeFirstOrThrow()).person_id;
    }
    async function eventTypes() {
      const rows = await server.database.db.selectFrom("webhook_messages").select(["event_type", "payload"]).orderBy("id").execute();
      return rows.map((r) => `${r.event_type} ${(JSON.parse(r.payload) as { data: { userId: string } }).data.userId}`);
    }

    it("links with a publish token, moves to the last person linked, and unlinks only from that person", async () => {
      const { sub, id } = await subscribed();
      const linked = await publishToken.request("PUT", path("pedido/4821 ção"), { endpoint: sub.endpoint });
      expect(linked.status).toBe(200);
      expect(linked.body.subscription).toMatchObject({ id, userId: "pedido/4821 ção" });
      expect(await personOf(sub.endpoint)).toBe("pedido/4821 ção");

      expect((await publishToken.request("PUT", path("outra"), { endpoint: sub.endpoint })).body.subscription.userId).toBe("outra");
      // Not this person's: left alone (still 200, with the subscription as it is).
      const notTheirs = await publishToken.request("DELETE", path("pedido/4821 ção"), { endpoint: sub.endpoint });
      expect(notTheirs).toMatchObject({ status: 200, body: { subscription: { userId: "outra" } } });
      const unlinked = await publishToken.request("DELETE", path("outra"), { endpoint: sub.endpoint });
      expect(unlinked.body.subscription.userId).toBeNull();
      expect(await eventTypes()).toEqual(["person.identified pedido/4821 ção", "person.forgotten pedido/4821 ção", "person.identified outra", "person.forgotten outra"]);
    });

    it("takes a 128-character id in the path and refuses malformed ones and unknown endpoints", async () => {
      const { sub } = await subscribed();
      const longest = "ü".repeat(128);
      expect((await publishToken.request("PUT", path(longest), { endpoint: sub.endpoint })).body.subscription.userId).toBe(longest);
      for (const bad of ["x".repeat(129), "a\u2028b", "a\u0007b", " a"]) {
        const res = await publishToken.request("PUT", path(bad), { endpoint: sub.endpoint });
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect(res.body.error.code).toBe("user_id_invalid");
      }
      expect(await publishToken.request("PUT", path("ana"), { endpoint: aBrowserSubscription().endpoint })).toMatchObject({ status: 404, body: errorOf("subscription_not_found", "endpoint") });
      expect((await publishToken.request("DELETE", path("ana"), { endpoint: aBrowserSubscription().endpoint })).status).toBe(404);
    });

    it("lets admin tokens and signed-in admins link; refuses publishers signed in and anonymous callers", async () => {
      const { sub } = await subscribed();
      const adminToken = new ApiClient(server, { origin: null, bearer: (await addToken(admin, "admin")).secret });
      expect((await adminToken.request("PUT", path("a1"), { endpoint: sub.endpoint })).status).toBe(200);
      expect((await admin.request("PUT", path("a2"), { endpoint: sub.endpoint })).status).toBe(200);
      const { client: publisher } = await addUser(admin, "publisher");
      expect((await publisher.request("PUT", path("a3"), { endpoint: sub.endpoint })).status).toBe(403);
      expect((await new ApiClient(server).request("PUT", path("a3"), { endpoint: sub.endpoint })).status).toBe(401);
      expect((await new ApiClient(server, { origin: null, bearer: "sino_falso" }).request("DELETE", path("a2"), { endpoint: sub.endpoint })).status).toBe(401);
      expect(await personOf(sub.endpoint)).toBe("a2");
    });
  });
}
