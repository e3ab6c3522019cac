import { describe, expect, it } from "vitest";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";
import { createWebhooksRepository, type NewWebhook, type WebhooksRepository } from "./webhooks-repository.js";

const aWebhook = (overrides: Partial<NewWebhook> = {}): NewWebhook => ({
  url: "https://hooks.example.com/sino",
  description: null,
  events: ["recipient.accepted"],
  secret: "whsec_c2VjcmV0",
  ...overrides,
});

const lease = (owner: string, now: number) => ({ owner, now, leaseMs: 60_000 });
const claimAll = { limit: 100, excludeWebhooks: [] };

for (const dialect of DIALECTS) {
  describe(`webhooks repository on ${dialect}`, () => {
    let database: TestDatabase;
    let webhooks: WebhooksRepository;
    useTestDatabase(dialect, (created) => {
      database = created;
      webhooks = createWebhooksRepository(database);
    });

    async function enqueue(n: number, now = 1000): Promise<void> {
      const events = Array.from({ length: n }, (_, i) => ({ type: "recipient.accepted" as const, data: { subscriptionId: String(i) } }));
      await enqueueWebhookEvents(database.db, events, now);
    }

    it("creates, lists, updates, rotates and removes webhooks, at most `max` of them", async () => {
      const first = await webhooks.create(aWebhook({ description: "CRM" }), 1000, 2);
      expect(first).toEqual({
        id: expect.any(Number),
        url: "https://hooks.example.com/sino",
        description: "CRM",
        events: ["recipient.accepted"],
        enabled: true,
        createdAt: 1000,
        updatedAt: 1000,
      });
      await webhooks.create(aWebhook(), 1000, 2);
      expect(await webhooks.create(aWebhook(), 1000, 2)).toBeUndefined();
      expect((await webhooks.list()).map((w) => w.id)[0]).toBe(first!.id);

      const updated = await webhooks.update(first!.id, { enabled: false, events: ["notification.completed"], description: null }, 2000);
      expect(updated).toMatchObject({ enabled: false, events: ["notification.completed"], description: null, updatedAt: 2000 });
      expect(await webhooks.update(999_999, { enabled: true }, 2000)).toBeUndefined();

      await webhooks.rotateSecret(first!.id, "whsec_bmV3", 3000);
      const row = await database.db.selectFrom("webhooks").select("secret").where("id", "=", first!.id).executeTakeFirstOrThrow();
      expect(row.secret).toBe("whsec_bmV3");

      expect(await webhooks.remove(first!.id)).toBe(true);
      expect(await webhooks.remove(first!.id)).toBe(false);
      expect(await webhooks.list()).toHaveLength(1);
    });

    it("claims due messages of enabled webhooks once, and again after the lease runs out", async () => {
      const hook = (await webhooks.create(aWebhook(), 0, 20))!;
      await enqueue(3);
      const a = await webhooks.claimDue(lease("a", 1000), claimAll);
      expect(a).toHaveLength(3);
      expect(a[0]).toMatchObject({ attempts: 0, webhook: { id: hook.id, url: hook.url, secret: "whsec_c2VjcmV0" } });
      expect(JSON.parse(a[0]!.payload)).toMatchObject({ type: "recipient.accepted", data: { subscriptionId: "0" } });
      expect(await webhooks.claimDue(lease("b", 1000), claimAll)).toHaveLength(0);
      // Lease lost: a's late settlement changes nothing, b's counts.
      const b = await webhooks.claimDue(lease("b", 61_000), claimAll);
      expect(b).toHaveLength(3);
      expect(await webhooks.settle(lease("a", 61_500), a[0]!.id, { kind: "delivered", status: 200 })).toBe(false);
      expect(await webhooks.settle(lease("b", 61_500), b[0]!.id, { kind: "delivered", status: 204 })).toBe(true);

      await webhooks.update(hook.id, { enabled: false }, 62_000);
      expect(await webhooks.claimDue(lease("c", 200_000), claimAll)).toHaveLength(0);
      await webhooks.update(hook.id, { enabled: true }, 62_000);
      expect(await webhooks.claimDue(lease("c", 200_000), { limit: 100, excludeWebhooks: [hook.id] })).toHaveLength(0);
      expect(await webhooks.claimDue(lease("c", 200_000), { limit: 1, excludeWebhooks: [] })).toHaveLength(1);
    });

    it("records retries, a final failure and a delivery, and lists them newest first with paging", async () => {
      const hook = (await webhooks.create(aWebhook(), 0, 20))!;
      await enqueue(3);
      const [m1, m2, m3] = await webhooks.claimDue(lease("a", 1000), claimAll);
      await webhooks.settle(lease("a", 1000), m1!.id, { kind: "retry", status: 500, error: "http 500", notBefore: 6000 });
      await webhooks.settle(lease("a", 1000), m2!.id, { kind: "failed", status: null, error: "timeout" });
      await webhooks.settle(lease("a", 1000), m3!.id, { kind: "delivered", status: 200 });
      // Not due before 6000.
      expect(await webhooks.claimDue(lease("a", 5999), claimAll)).toHaveLength(0);
      expect(await webhooks.claimDue(lease("a", 6000), claimAll)).toMatchObject([{ id: m1!.id, attempts: 1 }]);

      const page1 = await webhooks.listMessages(hook.id, 1, 2);
      expect(page1.total).toBe(3);
      expect(page1.messages.map((m) => [m.status, m.attempts, m.lastStatus, m.lastError])).toEqual([
        ["delivered", 1, 200, null],
        ["failed", 1, null, "timeout"],
      ]);
      expect(page1.messages[0]!.deliveredAt).toBe(1000);
      const page2 = await webhooks.listMessages(hook.id, 2, 2);
      expect(page2.messages).toMatchObject([{ status: "pending", attempts: 1, lastStatus: 500, lastError: "http 500", notBefore: 6000 }]);
    });

    it("resends a delivered or failed message: pending, due now, attempts from zero", async () => {
      const hook = (await webhooks.create(aWebhook(), 0, 20))!;
      await enqueue(2);
      const [m1, m2] = await webhooks.claimDue(lease("a", 1000), claimAll);
      await webhooks.settle(lease("a", 1000), m1!.id, { kind: "failed", status: 400, error: "http 400" });
      await webhooks.settle(lease("a", 1000), m2!.id, { kind: "delivered", status: 200 });
      const resent = await webhooks.resend(hook.id, m1!.messageId, 9000);
      expect(resent).toMatchObject({ status: "pending", attempts: 0, notBefore: 9000, messageId: m1!.messageId });
      expect(await webhooks.resend(hook.id, m2!.messageId, 9000)).toMatchObject({ status: "pending", deliveredAt: null });
      expect(await webhooks.resend(hook.id + 1, m2!.messageId, 9000)).toBeUndefined();
      expect(await webhooks.claimDue(lease("b", 9000), claimAll)).toHaveLength(2);
    });

    it("queues a test ping for one webhook whatever its events, and prunes old delivered messages", async () => {
      const hook = (await webhooks.create(aWebhook({ events: ["notification.completed"] }), 0, 20))!;
      const ping = await webhooks.enqueueOne(hook.id, "webhook.test", { webhookId: String(hook.id) }, 1000);
      expect(ping).toMatchObject({ eventType: "webhook.test", status: "pending", messageId: expect.stringMatching(/^msg_/) });
      const [claimed] = await webhooks.claimDue(lease("a", 1000), claimAll);
      await webhooks.settle(lease("a", 1000), claimed!.id, { kind: "delivered", status: 200 });
      await webhooks.enqueueOne(hook.id, "webhook.test", {}, 1000);
      expect(await webhooks.pruneDelivered(1000, 100)).toBe(0);
      expect(await webhooks.pruneDelivered(1001, 100)).toBe(1);
      expect((await webhooks.listMessages(hook.id, 1, 10)).total).toBe(1);
      // Deleting the webhook deletes its messages.
      await webhooks.remove(hook.id);
      const left = await database.db.selectFrom("webhook_messages").select("id").execute();
      expect(left).toHaveLength(0);
    });

    it("settles many attempts in one transaction and says which leases were lost", async () => {
      const hook = (await webhooks.create(aWebhook(), 0, 20))!;
      await enqueue(3);
      const [m1, m2, m3] = await webhooks.claimDue(lease("a", 1000), claimAll);
      await database.db.updateTable("webhook_messages").set({ lease_owner: "b" }).where("id", "=", m3!.id).execute();
      const lost = await webhooks.settleMany(lease("a", 1000), [
        { id: m1!.id, outcome: { kind: "delivered", status: 200 } },
        { id: m2!.id, outcome: { kind: "retry", status: 502, error: "HTTP 502", notBefore: 6000 } },
        { id: m3!.id, outcome: { kind: "delivered", status: 200 } },
      ]);
      expect(lost).toEqual([m3!.id]);
      const byStatus = (await webhooks.listMessages(hook.id, 1, 10)).messages.map((m) => [m.status, m.attempts]);
      expect(byStatus).toEqual([
        ["pending", 0],
        ["pending", 1],
        ["delivered", 1],
      ]);
    });

    it("gives released messages back at once", async () => {
      await webhooks.create(aWebhook(), 0, 20);
      await enqueue(2);
      const claimed = await webhooks.claimDue(lease("a", 1000), claimAll);
      await webhooks.release("b", claimed.map((c) => c.id)); // not b's: nothing
      expect(await webhooks.claimDue(lease("b", 1000), claimAll)).toHaveLength(0);
      await webhooks.release("a", claimed.map((c) => c.id));
      expect(await webhooks.claimDue(lease("b", 1000), claimAll)).toHaveLength(2);
    });
  });
}
