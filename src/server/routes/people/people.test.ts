/**
 * People and recipients over HTTP, on SQLite and PostgreSQL, after a real send through the fake
 * push service: a send's recipients (keyset pages, outcome filter, shown times), the people list
 * and search, a person's devices and history, 404s, admin-only access, and never an endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../../../test/support/delivery.js";
import { useFakePushService } from "../../../../test/support/fake-push/shared-fake-push-service.js";
import { loadTestTls } from "../../../../test/support/fake-push/test-tls.js";
import { addUser, setUpAdmin, type ApiClient } from "../../../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";
import { notificationRecipientsPath, personNotificationsPath, personPath } from "../../../shared/api/routes.js";

const fake = useFakePushService();

for (const dialect of DIALECTS) {
  describe(`people and recipients on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    let publisher: ApiClient;
    let sendId: string;
    let ids: number[];

    beforeAll(async () => {
      server = await startTestServer({
        dialect,
        env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50", SINO_ENCRYPTION_THREADS: "0", SINO_PUSH_TIMEOUT_MS: "5000" },
      });
      admin = await setUpAdmin({ url: server.url, origin: server.url });
      publisher = (await addUser(admin, "publisher")).client;
      fake().reset();
      const names = await seedSubscriptions(server.database, fake(), 5, `${dialect}-people-`);
      ids = (await server.database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
      await server.database.db.updateTable("subscriptions").set({ person_id: "cliente-42", identified_at: 1_000 }).where("id", "in", [ids[0]!, ids[2]!]).execute();
      await server.database.db.updateTable("subscriptions").set({ person_id: "cliente-7", identified_at: 2_000 }).where("id", "=", ids[4]!).execute();
      fake().setBehaviour({ id: names[1]!, action: { kind: "status", status: 410 } });
      fake().setBehaviour({ id: names[3]!, action: { kind: "status", status: 400 } });
      const send = await server.delivery.createNotification({ title: "Seu pedido saiu para entrega" });
      sendId = String(send.id);
      await waitForNotification(() => server.delivery.getNotification(send.id));
      await server.database.db.insertInto("notification_events").values({ notification_id: send.id, subscription_id: ids[0]!, type: "clicked", created_at: Date.UTC(2026, 0, 2) }).execute();
    });
    afterAll(async () => {
      await server.close();
    });

    function expectNoEndpoint(body: unknown): void {
      const text = JSON.stringify(body);
      expect(text).not.toMatch(/endpoint|p256dh|"auth"/);
      expect(text).not.toContain(fake().endpointFor(`${dialect}-people-0`));
    }

    it("lists a send's recipients page by page, with person, site, outcome and reports", async () => {
      const first = await publisher.get(`${notificationRecipientsPath(sendId)}?limit=2`);
      expect(first.status).toBe(200);
      expect(first.body.recipients).toHaveLength(2);
      expect(first.body.recipients[0]).toMatchObject({
        subscriptionId: String(ids[0]),
        userId: "cliente-42",
        site: { id: "1", origin: "http://localhost:8080" },
        outcome: "accepted",
        reason: null,
        attempts: 1,
        shownAt: null,
        clickedAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
        closedAt: null,
      });
      expect(first.body.next).toBe(String(ids[1]));
      const seen = [...first.body.recipients];
      let next: string | null = first.body.next;
      while (next !== null) {
        const page = await publisher.get(`${notificationRecipientsPath(sendId)}?limit=2&after=${next}`);
        expect(page.status).toBe(200);
        seen.push(...page.body.recipients);
        next = page.body.next;
      }
      expect(seen.map((r) => [r.subscriptionId, r.outcome, r.reason])).toEqual([
        [String(ids[0]), "accepted", null],
        [String(ids[1]), "removed", "gone"],
        [String(ids[2]), "accepted", null],
        [String(ids[3]), "failed", "bad_request"],
        [String(ids[4]), "accepted", null],
      ]);
      expectNoEndpoint(seen);
    });

    it("filters recipients by outcome and refuses an unknown outcome or send", async () => {
      const failed = await admin.get(`${notificationRecipientsPath(sendId)}?outcome=failed`);
      expect(failed.body).toEqual({ recipients: [expect.objectContaining({ subscriptionId: String(ids[3]), outcome: "failed" })], next: null });
      expect((await admin.get(`${notificationRecipientsPath(sendId)}?outcome=lost`)).status).toBe(400);
      expect((await admin.get(`${notificationRecipientsPath(sendId)}?limit=501`)).status).toBe(400);
      const missing = await admin.get(notificationRecipientsPath("999999"));
      expect(missing.status).toBe(404);
      expect(missing.body.error.code).toBe("notification_not_found");
    });

    it("lists people with their device count, searchable by the start of the id (case-sensitive)", async () => {
      const all = await admin.get("/api/v1/people");
      expect(all.status).toBe(200);
      expect(all.body).toMatchObject({ total: 2, page: 1, pageSize: 50 });
      expect(all.body.people.map((p: { userId: string; subscriptions: number }) => [p.userId, p.subscriptions]).sort()).toEqual([
        ["cliente-42", 2],
        ["cliente-7", 1],
      ]);
      expect(all.body.people.find((p: { userId: string }) => p.userId === "cliente-7").identifiedAt).toBe(new Date(2_000).toISOString());
      const search = await admin.get("/api/v1/people?query=cliente-4");
      expect(search.body.people.map((p: { userId: string }) => p.userId)).toEqual(["cliente-42"]);
      expect((await admin.get("/api/v1/people?query=CLIENTE")).body.total).toBe(0);
      expectNoEndpoint(all.body);
    });

    it("shows a person's devices and the pushes that reached them, never an endpoint", async () => {
      const person = await admin.get(personPath("cliente-42"));
      expect(person.status).toBe(200);
      expect(person.body.person.userId).toBe("cliente-42");
      expect(person.body.person.subscriptions.map((d: { id: string }) => d.id)).toEqual([String(ids[2]), String(ids[0])]);
      expect(person.body.person.subscriptions[0]).toMatchObject({ site: { id: "1", origin: "http://localhost:8080" }, channels: [], identifiedAt: new Date(1_000).toISOString() });
      expectNoEndpoint(person.body);

      const history = await admin.get(personNotificationsPath("cliente-42"));
      expect(history.status).toBe(200);
      expect(history.body.total).toBe(2);
      expect(history.body.deliveries[0]).toMatchObject({
        notification: { id: sendId, title: "Seu pedido saiu para entrega", category: "marketing", status: "completed" },
        subscriptionId: String(ids[0]),
        outcome: "accepted",
        clickedAt: new Date(Date.UTC(2026, 0, 2)).toISOString(),
      });
      expectNoEndpoint(history.body);
    });

    it("answers 404 for an unknown person, 400 for a malformed id, 403 for a publisher", async () => {
      const unknown = await admin.get(personPath("ninguem"));
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe("person_not_found");
      expect((await admin.get(personNotificationsPath("ninguem"))).status).toBe(404);
      const spaced = await admin.get(personPath(" cliente-42"));
      expect(spaced.status).toBe(400);
      expect(spaced.body.error.code).toBe("user_id_invalid");
      expect((await admin.get(personPath("a".repeat(129)))).status).toBe(400);
      expect((await publisher.get("/api/v1/people")).status).toBe(403);
      expect((await publisher.get(personPath("cliente-42"))).status).toBe(403);
    });

    it("keeps a person with history but no devices left findable", async () => {
      await server.database.db.updateTable("subscriptions").set({ person_id: null }).where("person_id", "=", "cliente-7").execute();
      const person = await admin.get(personPath("cliente-7"));
      expect(person.status).toBe(200);
      expect(person.body.person.subscriptions).toEqual([]);
      expect((await admin.get(personNotificationsPath("cliente-7"))).body.total).toBe(1);
    });

    it("searches subscribers by user id", async () => {
      const res = await admin.get("/api/v1/subscribers?user=cliente-4");
      expect(res.status).toBe(200);
      expect(res.body.subscribers.map((s: { id: string; userId: string }) => [s.id, s.userId])).toEqual([
        [String(ids[2]), "cliente-42"],
        [String(ids[0]), "cliente-42"],
      ]);
    });
  });
}
