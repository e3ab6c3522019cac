import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import type { Notification } from "../store/notifications-repository.js";
import { createRepositories } from "../store/repositories.js";
import { BUILT_IN_SITE_ID } from "../store/migrations/0006-sites.js";
import { createDeliveryEngine, type DeliveryEngine } from "./engine.js";
import { createLocalTimeGate } from "./gates/local-time-gate.js";

const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });

/** 23:00 in São Paulo (UTC−3, no DST since 2019) is 10:00 in Singapore (UTC+8). */
const SP_23H = Date.UTC(2026, 10, 27, 2, 0, 0);
/** 08:00 the next morning in São Paulo. */
const SP_8H = Date.UTC(2026, 10, 27, 11, 0, 0);
const HOUR = 3_600_000;

/** A clock set to an instant, moving with real time from there (leases and polls keep working). */
function createSetClock(start: number) {
  let base = start;
  let since = Date.now();
  return {
    now: () => base + (Date.now() - since),
    set(at: number) {
      base = at;
      since = Date.now();
    },
  };
}

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

function requestsFor(id: string): number {
  return fake.stats().log.filter((r) => r.id === id).length;
}

/** The invariant at the end of every notification: every target is accounted for exactly once. */
function expectCountsAddUp(notification: Notification): void {
  const c = notification.counts;
  expect(c.accepted + c.failed + c.removed + c.expired).toBe(c.queued);
  expect(c.waiting).toBe(0);
  expect(c.retrying).toBe(0);
}

for (const dialect of DIALECTS) {
  describe(`delivery in the subscriber's local time on ${dialect}`, () => {
    let database: TestDatabase;
    let transport: PushTransport;
    const engines: DeliveryEngine[] = [];
    let clock: ReturnType<typeof createSetClock>;

    function engine(): DeliveryEngine {
      const repositories = createRepositories(database);
      const created = createDeliveryEngine({
        repositories,
        transport,
        vapid,
        clock: () => clock.now(),
        random: () => 0.5,
        options: { lanes: 2, batchSize: 5, jobSize: 8, pollMs: 20, leaseMs: 30_000, encryptionThreads: 0 },
        localTime: createLocalTimeGate({ defaultTimeZone: "America/Sao_Paulo", defaultWindow: "08:00-21:00", sites: () => repositories.sites.listPlain(), clock: () => clock.now() }),
      });
      engines.push(created);
      return created;
    }

    /** Sets each subscription's reported zone and quiet hours, as the bell and the panel store them. */
    async function setLocal(endpointIds: readonly string[], values: { time_zone?: string | null; quiet_hours?: string | null }): Promise<void> {
      await database.db.updateTable("subscriptions").set(values).where("endpoint", "in", endpointIds.map((id) => fake.endpointFor(id))).execute();
    }

    async function recipientOutcomes(sendId: number): Promise<Record<string, string>> {
      const rows = await database.db
        .selectFrom("notification_recipients")
        .innerJoin("subscriptions", "subscriptions.id", "notification_recipients.subscription_id")
        .select(["subscriptions.endpoint", "notification_recipients.outcome"])
        .where("notification_id", "=", sendId)
        .execute();
      return Object.fromEntries(rows.map((r) => [r.endpoint.split("/").pop()!, r.outcome]));
    }

    beforeEach(async () => {
      fake.reset();
      clock = createSetClock(SP_23H);
      database = await createTestDatabase(dialect);
      transport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca, requestTimeoutMs: 10_000 });
    });
    afterEach(async () => {
      for (const e of engines.splice(0)) await e.stop({ graceful: true });
      await transport.close();
      await database.cleanup();
    });

    it("sends at 23h São Paulo only where it is daytime; São Paulo gets it at 8h there", async () => {
      const ids = await seedSubscriptions(database, fake, 12);
      const paulistas = ids.slice(0, 4);
      const singapore = ids.slice(4, 8);
      const unknown = ids.slice(8); // no zone reported: the site's, then SINO_TIME_ZONE (São Paulo)
      await setLocal(paulistas, { time_zone: "America/Sao_Paulo" });
      await setLocal(singapore, { time_zone: "Asia/Singapore" });
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Promoção", ttlSeconds: 24 * 3600 });

      const held = await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 4 && s.counts.waiting === 8);
      expect(held.status).toBe("sending");
      expect(held.waitingUntil).toBe(SP_8H);
      expect(singapore.map(requestsFor)).toEqual([1, 1, 1, 1]);
      expect([...paulistas, ...unknown].map(requestsFor)).toEqual(Array(8).fill(0));
      const outcomes = await recipientOutcomes(created.id);
      for (const id of [...paulistas, ...unknown]) expect(outcomes[id]).toBe("waiting");
      const waitingRows = await database.db.selectFrom("delivery_retries").select(["not_before", "last_reason", "attempt"]).where("notification_id", "=", created.id).execute();
      expect(waitingRows).toHaveLength(8);
      for (const row of waitingRows) expect({ at: Number(row.not_before), reason: row.last_reason, attempt: Number(row.attempt) }).toEqual({ at: SP_8H, reason: "window", attempt: 1 });

      // 07:59 there: still nothing.
      clock.set(SP_8H - 60_000);
      e.wake();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await e.getNotification(created.id))!.counts.waiting).toBe(8);

      clock.set(SP_8H);
      e.wake();
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", waitingUntil: null, counts: { queued: 12, accepted: 12, waiting: 0, expired: 0 } });
      expectCountsAddUp(done);
      expect(ids.map(requestsFor)).toEqual(Array(12).fill(1));
      expect(Object.values(await recipientOutcomes(created.id))).toEqual(Array(12).fill("accepted"));
      expect(fake.stats().duplicateAcceptances).toBe(0);
    });

    it("lets a subscriber's own quiet hours win over the site's window, both ways", async () => {
      // 07:30 in São Paulo: before the site's 08:00 opening.
      clock.set(SP_8H - 30 * 60_000);
      const [plain, lateSleeper, longBreakfast] = await seedSubscriptions(database, fake, 3);
      await setLocal([plain!, lateSleeper!, longBreakfast!], { time_zone: "America/Sao_Paulo" });
      await setLocal([lateSleeper!], { quiet_hours: "22:00-07:00" }); // open from 07:00: earlier than the site
      await setLocal([longBreakfast!], { quiet_hours: "07:00-09:30" }); // closed until 09:30: later than the site
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Bom dia", ttlSeconds: 24 * 3600 });
      const held = await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 1 && s.counts.waiting === 2);
      expect(requestsFor(lateSleeper!)).toBe(1);
      expect(held.waitingUntil).toBe(SP_8H);

      clock.set(SP_8H);
      e.wake();
      const later = await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 2);
      expect(requestsFor(plain!)).toBe(1);
      expect(requestsFor(longBreakfast!)).toBe(0);
      expect(later).toMatchObject({ status: "sending", counts: { waiting: 1 }, waitingUntil: SP_8H + 90 * 60_000 });

      clock.set(SP_8H + 90 * 60_000);
      e.wake();
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", counts: { queued: 3, accepted: 3 } });
      expectCountsAddUp(done);
      expect(requestsFor(longBreakfast!)).toBe(1);
    });

    it("uses the site's zone and window for a subscriber that reported no zone", async () => {
      // 23h in São Paulo is 10h in Singapore; the site's window 09:00-11:00 is open there.
      await database.db.updateTable("sites").set({ time_zone: "Asia/Singapore", send_window: "09:00-11:00" }).where("id", "=", BUILT_IN_SITE_ID).execute();
      const [noZone, paulista] = await seedSubscriptions(database, fake, 2);
      await setLocal([paulista!], { time_zone: "America/Sao_Paulo" });
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Site", ttlSeconds: 24 * 3600 });
      const held = await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 1 && s.counts.waiting === 1);
      expect(requestsFor(noZone!)).toBe(1);
      // The paulista waits for the site's 09:00, in São Paulo.
      expect(held.waitingUntil).toBe(SP_8H + HOUR);
    });

    it("drops what its TTL would end before the window opens, and counts it as expired", async () => {
      const [paulista, singapore] = await seedSubscriptions(database, fake, 2);
      await setLocal([paulista!], { time_zone: "America/Sao_Paulo" });
      await setLocal([singapore!], { time_zone: "Asia/Singapore" });
      const e = engine();
      e.start();
      // One hour of TTL; São Paulo opens in nine.
      const created = await e.createNotification({ title: "Relâmpago", ttlSeconds: 3600 });
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", waitingUntil: null, counts: { queued: 2, accepted: 1, expired: 1, failed: 0, waiting: 0 } });
      expectCountsAddUp(done);
      expect(requestsFor(paulista!)).toBe(0);
      expect(await recipientOutcomes(created.id)).toEqual({ [paulista!]: "expired", [singapore!]: "accepted" });
    });

    it("never sends late what waited past its TTL while no worker was up", async () => {
      const [paulista] = await seedSubscriptions(database, fake, 1);
      const first = engine();
      first.start();
      // Ten hours of TTL: the 08:00 opening (nine hours away) is inside it, so it waits.
      const created = await first.createNotification({ title: "Quase", ttlSeconds: 10 * 3600 });
      await waitForNotification(() => first.getNotification(created.id), (s) => s.counts.waiting === 1);
      await first.stop({ graceful: true });
      // The workers come back after the TTL ended.
      clock.set(SP_23H + 11 * HOUR);
      const second = engine();
      second.start();
      const done = await waitForNotification(() => second.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", counts: { queued: 1, accepted: 0, expired: 1, failed: 0, waiting: 0 } });
      expectCountsAddUp(done);
      expect(requestsFor(paulista!)).toBe(0);
      expect(await recipientOutcomes(created.id)).toEqual({ [paulista!]: "expired" });
    });

    it("never holds a transactional send, nor an exempt one", async () => {
      const ids = await seedSubscriptions(database, fake, 3);
      await setLocal(ids, { time_zone: "America/Sao_Paulo", quiet_hours: "22:00-07:00" });
      const e = engine();
      const transactional = await e.createNotification({ title: "Seu pedido saiu", category: "transactional", ttlSeconds: 3600 });
      const exempt = await e.createNotification({ title: "Urgente", ttlSeconds: 3600 });
      // The gates helper's API sets this flag; the column is what the worker reads.
      await database.db.updateTable("notifications").set({ exempt: 1 }).where("id", "=", exempt.id).execute();
      e.start();
      for (const notification of [transactional, exempt]) {
        const done = await waitForNotification(() => e.getNotification(notification.id));
        expect(done).toMatchObject({ status: "completed", counts: { queued: 3, accepted: 3, waiting: 0, expired: 0 } });
      }
      expect(ids.map(requestsFor)).toEqual([2, 2, 2]);
    });

    it("still delivers what waits across a restart of every worker", async () => {
      const ids = await seedSubscriptions(database, fake, 9);
      const first = engine();
      first.start();
      const created = await first.createNotification({ title: "Amanhã cedo", ttlSeconds: 24 * 3600 });
      await waitForNotification(() => first.getNotification(created.id), (s) => s.counts.waiting === 9);
      // As a crash would: nothing checkpointed afterwards.
      await first.stop({ graceful: false });
      clock.set(SP_8H + 5 * 60_000);
      // Two workers share the waiting rows when they come due.
      const second = engine();
      const third = engine();
      second.start();
      third.start();
      const done = await waitForNotification(() => second.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", counts: { queued: 9, accepted: 9 } });
      expectCountsAddUp(done);
      expect(ids.map(requestsFor)).toEqual(Array(9).fill(1));
      expect(fake.stats().duplicateAcceptances).toBe(0);
    });

    it("cancelling a send drops what waits, as failed and cancelled", async () => {
      await seedSubscriptions(database, fake, 4);
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Esquece", ttlSeconds: 24 * 3600 });
      await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.waiting === 4);
      const cancelled = await e.cancelNotification(created.id);
      expect(cancelled).toMatchObject({ status: "cancelled", waitingUntil: null, counts: { waiting: 0 } });
      expect(Object.values(await recipientOutcomes(created.id))).toEqual(Array(4).fill("failed"));
      const left = await database.db.selectFrom("delivery_retries").select("id").where("notification_id", "=", created.id).execute();
      expect(left).toEqual([]);
    });
  });
}
