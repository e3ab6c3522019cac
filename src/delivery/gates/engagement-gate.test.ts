/**
 * The engagement gate as the engine runs it, on SQLite and PostgreSQL, with a controlled clock:
 * the frequency cap over a rolling 24 h (the server's and a site's own), transactional and
 * exempt sends never held back, sleeping subscriptions skipped and reached once per sleeping
 * period by a re-engagement send; the counters and recipient rows add up.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { createSteppingClock, seedSubscriptions, waitForNotification } from "../../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../../test/support/fake-push/test-tls.js";
import { createPushTransport, type PushTransport } from "../../push/transport.js";
import { createVapidSigner } from "../../push/vapid.js";
import { generateVapidKeys } from "../../push/vapid-keys.js";
import { createRepositories, type Repositories } from "../../store/repositories.js";
import type { Notification } from "../../store/notifications-repository.js";
import type { NotificationInput } from "../notification-input.js";
import { createDeliveryEngine, type DeliveryEngine } from "../engine.js";

const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });
const DAY = 86_400_000;
const RULES = { frequencyCap: 3, sleepingDays: 30 };

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

/** accepted + failed + removed + limited + asleep = queued, once a notification is over. */
function addsUp(send: Notification): boolean {
  const c = send.counts;
  return c.accepted + c.failed + c.removed + c.limited + c.asleep === c.queued;
}

for (const dialect of DIALECTS) {
  describe(`engagement gate on ${dialect}`, () => {
    let database: TestDatabase;
    let transport: PushTransport;
    let engine: DeliveryEngine;
    let repositories: Repositories;
    let clock: ReturnType<typeof createSteppingClock>;
    let ids: number[];

    beforeEach(async () => {
      fake.reset();
      clock = createSteppingClock();
      database = await createTestDatabase(dialect);
      repositories = createRepositories(database);
      transport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca, requestTimeoutMs: 10_000 });
      // Small batches: the gate works per sub-batch across several ranges.
      engine = createDeliveryEngine({ repositories, transport, vapid, clock: clock.now, engagement: RULES, options: { lanes: 2, batchSize: 2, jobSize: 3, pollMs: 20, encryptionThreads: 0 } });
      await seedSubscriptions(database, fake, 5);
      ids = (await database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
      await database.db.updateTable("subscriptions").set({ person_id: "ana", identified_at: clock.now() }).where("id", "=", ids[0]!).execute();
      engine.start();
    });
    afterEach(async () => {
      await engine.stop({ graceful: true });
      await transport.close();
      await database.cleanup();
    });

    async function send(input: Partial<NotificationInput> = {}): Promise<Notification> {
      const created = await engine.createNotification({ title: "Oferta", ...input });
      const done = await waitForNotification(() => engine.getNotification(created.id));
      expect(addsUp(done)).toBe(true);
      return done;
    }

    async function outcomes(notificationId: number): Promise<Record<number, string>> {
      const rows = await database.db.selectFrom("notification_recipients").select(["subscription_id", "outcome"]).where("notification_id", "=", notificationId).execute();
      return Object.fromEntries(rows.map((r) => [Number(r.subscription_id), r.outcome]));
    }

    it("limits the 4th marketing push in 24 h, never a transactional one, and lets the cap roll over", async () => {
      for (let i = 0; i < 3; i++) {
        const done = await send();
        expect(done.counts).toMatchObject({ queued: 5, accepted: 5, limited: 0, asleep: 0 });
        clock.advance(60 * 60_000);
      }
      const fourth = await send();
      expect(fourth.status).toBe("completed");
      expect(fourth.counts).toMatchObject({ queued: 5, accepted: 0, failed: 0, removed: 0, retrying: 0, limited: 5, asleep: 0 });
      expect(Object.values(await outcomes(fourth.id))).toEqual(Array(5).fill("limited"));

      const transactional = await send({ title: "Seu pedido saiu", category: "transactional", audience: { kind: "people", people: 1 }, people: [{ id: "ana", data: null }] });
      expect(transactional.counts).toMatchObject({ queued: 1, accepted: 1, limited: 0 });

      // 24 h after the first push, one slot frees for everyone.
      clock.advance(DAY - 3 * 60 * 60_000 + 60_000);
      const later = await send();
      expect(later.counts).toMatchObject({ queued: 5, accepted: 5, limited: 0 });
      const again = await send();
      expect(again.counts).toMatchObject({ accepted: 0, limited: 5 });
    });

    it("applies a site's own cap instead of the server's", async () => {
      const site = await database.db
        .insertInto("sites")
        .values({ origin: "https://loja.exemplo.com.br", key: `k-${dialect}`, created_at: clock.now(), frequency_cap: 1 })
        .returning("id")
        .executeTakeFirstOrThrow();
      await database.db.updateTable("subscriptions").set({ site_id: Number(site.id) }).where("id", "in", [ids[3]!, ids[4]!]).execute();
      expect((await send()).counts).toMatchObject({ accepted: 5, limited: 0 });
      const second = await send();
      expect(second.counts).toMatchObject({ accepted: 3, limited: 2 });
      expect(await outcomes(second.id)).toEqual({ [ids[0]!]: "accepted", [ids[1]!]: "accepted", [ids[2]!]: "accepted", [ids[3]!]: "limited", [ids[4]!]: "limited" });
      const counts = await repositories.deliveryGates.countGated({ kind: "everyone" }, [], RULES, new Map([[1, null], [Number(site.id), 1]]), clock.now());
      expect(counts).toEqual({ limited: 2, asleep: 0 });
    });

    it("lets an exempt send through caps and sleeping", async () => {
      for (let i = 0; i < 3; i++) await send();
      await database.db.updateTable("subscriptions").set({ created_at: clock.now() - 40 * DAY }).where("id", "=", ids[1]!).execute();
      expect((await send()).counts).toMatchObject({ accepted: 0, limited: 4, asleep: 1 });
      const exempt = await send({ title: "Urgente: rua interditada", exempt: true });
      expect(exempt.exempt).toBe(true);
      expect(exempt.counts).toMatchObject({ queued: 5, accepted: 5, limited: 0, asleep: 0 });
    });

    it("skips a sleeping subscriber, reaches it once with a re-engagement send, and not again within the period", async () => {
      const now = clock.now();
      // Asleep: created 40 days ago, no visit, a click 31 days ago. Awake: a visit 2 days ago; a click yesterday.
      await database.db.updateTable("subscriptions").set({ created_at: now - 40 * DAY, last_clicked_at: now - 31 * DAY }).where("id", "=", ids[1]!).execute();
      await database.db.updateTable("subscriptions").set({ created_at: now - 40 * DAY, last_visit_at: now - 2 * DAY }).where("id", "=", ids[2]!).execute();
      await database.db.updateTable("subscriptions").set({ created_at: now - 40 * DAY, last_clicked_at: now - DAY }).where("id", "=", ids[3]!).execute();

      const audience = await repositories.deliveryGates.countGated({ kind: "everyone" }, [], RULES, new Map([[1, null]]), clock.now());
      expect(audience).toEqual({ limited: 0, asleep: 1 });

      const marketing = await send();
      expect(marketing.counts).toMatchObject({ queued: 5, accepted: 4, asleep: 1 });
      expect((await outcomes(marketing.id))[ids[1]!]).toBe("asleep");

      const reengagement = await send({ title: "Sentimos sua falta", reengagement: true });
      expect(reengagement.reengagement).toBe(true);
      expect(reengagement.counts).toMatchObject({ queued: 5, accepted: 5, asleep: 0 });
      const row = await database.db.selectFrom("subscriptions").select("reengaged_at").where("id", "=", ids[1]!).executeTakeFirstOrThrow();
      expect(Number(row.reengaged_at)).toBeGreaterThanOrEqual(now);
      const others = await database.db.selectFrom("subscriptions").select("reengaged_at").where("id", "!=", ids[1]!).execute();
      expect(others.every((r) => r.reengaged_at === null)).toBe(true);

      clock.advance(DAY + 60_000); // the cap's window rolls over; the sleeping period does not
      const second = await send({ title: "Ainda sentimos sua falta", reengagement: true });
      expect(second.counts).toMatchObject({ accepted: 4, asleep: 1 });
      expect((await outcomes(second.id))[ids[1]!]).toBe("asleep");
      expect((await send()).counts).toMatchObject({ accepted: 4, asleep: 1 });
    });
  });
}
