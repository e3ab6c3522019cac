/**
 * What became of each push, as the engine records it on SQLite and PostgreSQL: one
 * notification_recipients row per target (accepted, removed, failed, retried then accepted,
 * expired, cancelled), and the webhook events queued in the same transactions when a webhook is
 * registered (none when none is).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { createSteppingClock, seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { WEBHOOK_EVENT_TYPES } from "../shared/api/webhook-events.js";
import { createNotificationEventsRepository } from "../store/notification-events-repository.js";
import { createRepositories } from "../store/repositories.js";
import type { DeliveryOptions } from "./delivery-options.js";
import { createDeliveryEngine, type DeliveryEngine } from "./engine.js";

const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });
const OPTIONS: Partial<DeliveryOptions> = {
  lanes: 2,
  batchSize: 3,
  jobSize: 4,
  pollMs: 20,
  encryptionThreads: 0,
  retryPolicy: { maxAttempts: 3, baseDelayMs: 20, maxDelayMs: 100, minRetryAfterMs: 1000, maxRetryAfterMs: 3_600_000 },
};

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`recipient outcomes on ${dialect}`, () => {
    let database: TestDatabase;
    let transport: PushTransport;
    let engine: DeliveryEngine;
    const clock = createSteppingClock();

    beforeEach(async () => {
      fake.reset();
      database = await createTestDatabase(dialect);
      transport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca, requestTimeoutMs: 10_000 });
      engine = createDeliveryEngine({ repositories: createRepositories(database), transport, vapid, clock: clock.now, random: () => 0.5, options: OPTIONS });
    });
    afterEach(async () => {
      await engine.stop({ graceful: true });
      await transport.close();
      await database.cleanup();
    });

    async function addWebhook(): Promise<void> {
      await database.db
        .insertInto("webhooks")
        .values({ url: "https://hooks.exemplo.com.br/sino", description: null, events: JSON.stringify(WEBHOOK_EVENT_TYPES), secret: "whsec_dGVzdA==", created_at: 0, updated_at: 0 })
        .execute();
    }

    async function subscriptionIds(): Promise<number[]> {
      return (await database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
    }

    async function recipientRows(notificationId: number) {
      const rows = await database.db
        .selectFrom("notification_recipients")
        .selectAll()
        .where("notification_id", "=", notificationId)
        .orderBy("subscription_id")
        .execute();
      return rows.map((r) => ({ subscriptionId: Number(r.subscription_id), personId: r.person_id, siteId: Number(r.site_id), outcome: r.outcome, reason: r.reason, attempts: Number(r.attempts) }));
    }

    async function messages() {
      const rows = await database.db.selectFrom("webhook_messages").select(["event_type", "payload"]).orderBy("id").execute();
      return rows.map((r) => ({ type: r.event_type, ...(JSON.parse(r.payload) as { data: Record<string, unknown> }) }));
    }

    it("leaves one row per target: accepted, removed (410), failed (400) and retried then accepted, with the person and site", async () => {
      await addWebhook();
      const names = await seedSubscriptions(database, fake, 5);
      const ids = await subscriptionIds();
      await database.db.updateTable("subscriptions").set({ person_id: "cliente-42" }).where("id", "in", [ids[0]!, ids[3]!]).execute();
      fake.setBehaviour({ id: names[1]!, action: { kind: "status", status: 410 } });
      fake.setBehaviour({ id: names[2]!, action: { kind: "status", status: 400 } });
      fake.setBehaviour({ id: names[3]!, times: 1, action: { kind: "status", status: 500 } });
      engine.start();
      const notification = await engine.createNotification({ title: "Pedido enviado" });
      const done = await waitForNotification(() => engine.getNotification(notification.id));
      expect(done.counts).toMatchObject({ queued: 5, accepted: 3, failed: 1, removed: 1, retrying: 0 });

      expect(await recipientRows(notification.id)).toEqual([
        { subscriptionId: ids[0], personId: "cliente-42", siteId: 1, outcome: "accepted", reason: null, attempts: 1 },
        { subscriptionId: ids[1], personId: null, siteId: 1, outcome: "removed", reason: "gone", attempts: 1 },
        { subscriptionId: ids[2], personId: null, siteId: 1, outcome: "failed", reason: "bad_request", attempts: 1 },
        { subscriptionId: ids[3], personId: "cliente-42", siteId: 1, outcome: "accepted", reason: null, attempts: 2 },
        { subscriptionId: ids[4], personId: null, siteId: 1, outcome: "accepted", reason: null, attempts: 1 },
      ]);

      const queued = await messages();
      const recipientEvents = queued.filter((m) => m.type.startsWith("recipient."));
      expect(recipientEvents.map((m) => [m.type, m.data.subscriptionId, m.data.reason]).sort()).toEqual(
        [
          ["recipient.accepted", String(ids[0]), undefined],
          ["recipient.failed", String(ids[1]), "gone"],
          ["recipient.failed", String(ids[2]), "bad_request"],
          ["recipient.accepted", String(ids[3]), undefined],
          ["recipient.accepted", String(ids[4]), undefined],
        ].sort(),
      );
      expect(recipientEvents.find((m) => m.data.subscriptionId === String(ids[3]))?.data).toEqual({
        notificationId: String(notification.id),
        subscriptionId: String(ids[3]),
        userId: "cliente-42",
        siteId: "1",
      });
      const completed = queued.filter((m) => m.type === "notification.completed");
      expect(completed).toHaveLength(1);
      expect(completed[0]?.data).toMatchObject({ notificationId: String(notification.id), status: "completed", counts: { queued: 5, accepted: 3, failed: 1, removed: 1 } });
    });

    it("queues nothing when no webhook is registered", async () => {
      await seedSubscriptions(database, fake, 3);
      engine.start();
      const notification = await engine.createNotification({ title: "Sem webhook" });
      await waitForNotification(() => engine.getNotification(notification.id));
      expect(await recipientRows(notification.id)).toHaveLength(3);
      expect(await messages()).toEqual([]);
    });

    it("marks every target of an expired send failed with reason expired, without sending", async () => {
      await addWebhook();
      await seedSubscriptions(database, fake, 6);
      const notification = await engine.createNotification({ title: "Tarde demais", ttlSeconds: 60 });
      clock.advance(61_000);
      engine.start();
      const done = await waitForNotification(() => engine.getNotification(notification.id));
      expect(done).toMatchObject({ status: "failed", counts: { queued: 6, failed: 6 } });
      const rows = await recipientRows(notification.id);
      expect(rows).toHaveLength(6);
      expect(rows.every((r) => r.outcome === "failed" && r.reason === "expired" && r.attempts === 0)).toBe(true);
      const queued = await messages();
      expect(queued.filter((m) => m.type === "recipient.failed" && m.data.reason === "expired")).toHaveLength(6);
      expect(queued.filter((m) => m.type === "notification.completed").map((m) => m.data.status)).toEqual(["failed"]);
      expect(fake.stats().requests).toBe(0);
    });

    it("reports a send with no target as finished at once, with its no_recipients status", async () => {
      await addWebhook();
      const notification = await engine.createNotification({ title: "Ninguém" });
      expect(notification.status).toBe("no_recipients");
      expect((await messages()).map((m) => [m.type, m.data.notificationId, m.data.status])).toEqual([["notification.completed", String(notification.id), "no_recipients"]]);
    });

    it("queues recipient.shown once for a report recorded twice", async () => {
      await addWebhook();
      await seedSubscriptions(database, fake, 1);
      const row = await database.db.selectFrom("subscriptions").select(["id", "endpoint", "auth"]).executeTakeFirstOrThrow();
      await database.db.updateTable("subscriptions").set({ person_id: "cliente-7" }).execute();
      engine.start();
      const notification = await engine.createNotification({ title: "Visto" });
      await waitForNotification(() => engine.getNotification(notification.id));
      await database.db.deleteFrom("webhook_messages").execute();
      const events = createNotificationEventsRepository(database);
      const report = { notificationId: notification.id, type: "shown" as const, endpoint: row.endpoint, auth: row.auth };
      expect(await events.record(report, 5)).toBe("recorded");
      expect(await events.record(report, 6)).toBe("duplicate");
      expect(await messages()).toEqual([
        expect.objectContaining({
          type: "recipient.shown",
          data: { notificationId: String(notification.id), subscriptionId: String(row.id), userId: "cliente-7", siteId: "1" },
        }),
      ]);
    });
  });
}
