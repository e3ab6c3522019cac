import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { createSteppingClock, seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import type { Notification } from "../store/notifications-repository.js";
import { createSubscriptionsRepository } from "../store/subscriptions-repository.js";
import type { DeliveryOptions } from "./delivery-options.js";
import { createDeliveryEngine, type DeliveryEngine } from "./engine.js";
import { createRepositories } from "../store/repositories.js";

const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });
// Small batches and jobs so a few hundred subscriptions exercise many jobs, sub-batches and lanes.
const TEST_OPTIONS: Partial<DeliveryOptions> = {
  lanes: 3,
  batchSize: 40,
  jobSize: 100,
  pollMs: 20,
  leaseMs: 30_000,
  encryptionThreads: 1,
  retryPolicy: { maxAttempts: 4, baseDelayMs: 20, maxDelayMs: 100, minRetryAfterMs: 1000, maxRetryAfterMs: 3_600_000 },
};

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

function total(send: Notification): number {
  return send.counts.accepted + send.counts.failed + send.counts.removed;
}

for (const dialect of DIALECTS) {
  describe(`delivery engine on ${dialect}`, () => {
    let database: TestDatabase;
    let transport: PushTransport;
    const engines: DeliveryEngine[] = [];
    const clock = createSteppingClock();

    function testTransport(requestTimeoutMs: number): PushTransport {
      return createPushTransport({
        policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
        ca: loadTestTls().ca,
        requestTimeoutMs,
      });
    }

    function engine(options: Partial<DeliveryOptions> = {}, through: PushTransport = transport): DeliveryEngine {
      const created = createDeliveryEngine({
        repositories: createRepositories(database),
        transport: through,
        vapid,
        clock: clock.now,
        random: () => 0.5,
        options: { ...TEST_OPTIONS, ...options },
      });
      engines.push(created);
      return created;
    }

    beforeEach(async () => {
      fake.reset();
      database = await createTestDatabase(dialect);
      // A generous deadline: a loaded machine must not turn a slow answer into a retry (and a
      // duplicate). The hang test uses its own short one.
      transport = testTransport(10_000);
    });
    afterEach(async () => {
      for (const e of engines.splice(0)) await e.stop({ graceful: true });
      await transport.close();
      await database.cleanup();
    });

    it("delivers a send to every subscription exactly once, with the payload the service worker reads", async () => {
      const ids = await seedSubscriptions(database, fake, 450);
      const e = engine();
      e.start();
      const sentAt = Date.now();
      const created = await e.createNotification({ title: "Olá", body: "Promoção de hoje", url: "https://loja.example.com/p", ttlSeconds: 3600 });
      expect(created.counts).toEqual({ queued: 450, accepted: 0, retrying: 0, failed: 0, removed: 0, limited: 0, asleep: 0, waiting: 0, expired: 0 });
      expect(created.tag).toBe(`sino-${created.id}`);

      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done.status).toBe("completed");
      expect(done.counts).toEqual({ queued: 450, accepted: 450, retrying: 0, failed: 0, removed: 0, limited: 0, asleep: 0, waiting: 0, expired: 0 });
      expect(done.finishedAt).not.toBeNull();

      const stats = fake.stats();
      expect(stats.requests).toBe(450);
      expect([...stats.acceptedById.keys()].sort()).toEqual([...ids].sort());
      expect(stats.duplicateAcceptances).toBe(0);
      expect(stats.decrypted).toEqual({ ok: 450, failed: 0 });
      const plaintexts = new Set(stats.log.map((r) => r.plaintext));
      expect([...plaintexts]).toEqual([
        // `id`: the service worker reports shown/clicked/closed against it (POST /events).
        JSON.stringify({ title: "Olá", body: "Promoção de hoje", tag: `sino-${created.id}`, url: "https://loja.example.com/p", id: String(created.id) }),
      ]);
      // TTL counts down from the notification's creation: 3600 unless the machine took over a second.
      const elapsedS = Math.ceil((Date.now() - sentAt) / 1000);
      for (const { ttl } of stats.log) {
        expect(ttl).toMatch(/^\d+$/);
        expect(Number(ttl)).toBeLessThanOrEqual(3600);
        expect(Number(ttl)).toBeGreaterThanOrEqual(3600 - elapsedS);
      }
    });

    it("reports progress to listeners until the send completes", async () => {
      await seedSubscriptions(database, fake, 120);
      const e = engine();
      const seen: Notification[] = [];
      const created = await e.createNotification({ title: "Progresso" });
      const stop = e.onProgress(created.id, (send) => seen.push(send));
      e.start();
      await waitForNotification(() => e.getNotification(created.id));
      stop();
      expect(seen.length).toBeGreaterThanOrEqual(3); // 120 subscriptions in sub-batches of 40
      const accepted = seen.map((s) => s.counts.accepted);
      expect(accepted).toEqual([...accepted].sort((a, b) => a - b));
      expect(seen.at(-1)).toMatchObject({ status: "completed", counts: { accepted: 120 } });
    });

    it("does not target subscriptions created after the send", async () => {
      await seedSubscriptions(database, fake, 30, "before");
      const e = engine();
      const created = await e.createNotification({ title: "Só os de antes" });
      await seedSubscriptions(database, fake, 20, "after");
      e.start();
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 30, accepted: 30 });
      expect([...fake.stats().acceptedById.keys()].every((id) => id.startsWith("before"))).toBe(true);
    });

    it("ends a send to nobody at once as no_recipients", async () => {
      const created = await engine().createNotification({ title: "Ninguém" });
      expect(created).toMatchObject({ status: "no_recipients", counts: { queued: 0 } });
    });

    it("refuses a payload over 3993 bytes before storing anything", async () => {
      await expect(engine().createNotification({ title: "x", body: "é".repeat(2000) })).rejects.toMatchObject({ code: "payload_too_large" });
      await expect(engine().createNotification({ title: "  " })).rejects.toMatchObject({ code: "title_required" });
      await expect(engine().createNotification({ title: "x", topic: "não" })).rejects.toMatchObject({ code: "topic_invalid" });
      const rows = await database.db.selectFrom("notifications").select("id").execute();
      expect(rows).toEqual([]);
    });

    it("removes the subscription on 404 and on 410", async () => {
      await seedSubscriptions(database, fake, 10);
      fake.setBehaviour({ id: "s3", action: { kind: "status", status: 404 } });
      fake.setBehaviour({ id: "s7", action: { kind: "status", status: 410 } });
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Limpeza" });
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done.counts).toEqual({ queued: 10, accepted: 8, retrying: 0, failed: 0, removed: 2, limited: 0, asleep: 0, waiting: 0, expired: 0 });
      const left = await database.db.selectFrom("subscriptions").select("endpoint").execute();
      expect(left.map((r) => r.endpoint)).not.toContain(fake.endpointFor("s3"));
      expect(left.map((r) => r.endpoint)).not.toContain(fake.endpointFor("s7"));
      expect(left).toHaveLength(8);
      expect(requestsFor("s3")).toBe(1);
    });

    for (const status of [429, 503]) {
      it(`retries a ${status} after its Retry-After, not before`, async () => {
        await seedSubscriptions(database, fake, 5);
        fake.setBehaviour({ id: "s2", times: 1, action: { kind: "status", status, retryAfter: 120 } });
        const e = engine();
        e.start();
        const created = await e.createNotification({ title: "Devagar" });
        const waiting = await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 4);
        expect(waiting).toMatchObject({ status: "sending", counts: { accepted: 4, retrying: 1 } });
        const retry = await database.db.selectFrom("delivery_retries").selectAll().executeTakeFirstOrThrow();
        expect(retry).toMatchObject({ attempt: 2, last_reason: status === 429 ? "rate_limited" : "unavailable" });
        // Retry-After: 120 seconds from the answer; the stepping clock stands still meanwhile.
        expect(Number(retry.not_before) - Number(waiting.createdAt)).toBeGreaterThanOrEqual(120_000);
        // Idle lanes poll many times over; none may send before the delay has passed.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(requestsFor("s2")).toBe(1);

        clock.advance(121_000);
        e.wake();
        const done = await waitForNotification(() => e.getNotification(created.id));
        expect(done).toMatchObject({ status: "completed", counts: { queued: 5, accepted: 5, retrying: 0, failed: 0, removed: 0 } });
        expect(requestsFor("s2")).toBe(2);
        expect(fake.stats().acceptedById.get("s2")).toBe(1);
      });
    }

    it("logs why pushes will be retried, once per push service host and cause of a batch, with the next attempt and no endpoint", async () => {
      await seedSubscriptions(database, fake, 6);
      for (const id of ["s1", "s3", "s4"]) fake.setBehaviour({ id, times: 1, action: { kind: "status", status: 503, retryAfter: 120 } });
      const warnings: { details: Record<string, unknown>; message: string }[] = [];
      const logged = createDeliveryEngine({
        repositories: createRepositories(database),
        transport,
        vapid,
        clock: clock.now,
        random: () => 0.5,
        options: { ...TEST_OPTIONS, lanes: 1, batchSize: 40 },
        logger: { info: () => undefined, error: () => undefined, warn: (details, message) => warnings.push({ details: details as Record<string, unknown>, message }) },
      });
      engines.push(logged);
      logged.start();
      const created = await logged.createNotification({ title: "Registrado" });
      await waitForNotification(() => logged.getNotification(created.id), (s) => s.counts.accepted === 3 && s.counts.retrying === 3);
      const retryLines = warnings.filter((w) => w.message.includes("retried"));
      // One batch of six, one host, one cause: one line for the three pushes.
      expect(retryLines).toHaveLength(1);
      expect(retryLines[0]!.details).toMatchObject({
        send: created.id,
        host: new URL(fake.endpointFor("s1")).host,
        reason: "unavailable",
        status: 503,
        pushes: 3,
      });
      // The soonest of the three retries as stored.
      const soonest = await database.db.selectFrom("delivery_retries").select((eb) => eb.fn.min("not_before").as("at")).executeTakeFirstOrThrow();
      expect(retryLines[0]!.details.nextAttemptAt).toBe(new Date(Number(soonest.at)).toISOString());
      expect(JSON.stringify(retryLines)).not.toContain(fake.endpointFor("s1"));
    });

    it("retries a 500, a reset stream and a hang (after the request timeout) with backoff", async () => {
      await seedSubscriptions(database, fake, 6);
      fake.setBehaviour({ id: "s0", times: 2, action: { kind: "status", status: 500 } });
      fake.setBehaviour({ id: "s1", times: 1, action: { kind: "reset" } });
      fake.setBehaviour({ id: "s2", times: 1, action: { kind: "hang" } });
      const impatient = testTransport(1000);
      const e = engine({}, impatient);
      e.start();
      const created = await e.createNotification({ title: "Teimoso" });
      const done = await waitForNotification(() => e.getNotification(created.id));
      await e.stop({ graceful: true });
      await impatient.close();
      expect(done).toMatchObject({ status: "completed", counts: { queued: 6, accepted: 6, retrying: 0, failed: 0, removed: 0 } });
      expect(requestsFor("s0")).toBe(3);
      expect(requestsFor("s1")).toBe(2);
      expect(requestsFor("s2")).toBe(2);
      expect(fake.stats().duplicateAcceptances).toBe(0);
    });

    for (const status of [400, 401, 403, 413]) {
      it(`fails a ${status} without retry${status === 403 ? " and flags the subscription" : ""}`, async () => {
        await seedSubscriptions(database, fake, 4);
        fake.setBehaviour({ id: "s1", action: { kind: "status", status } });
        const e = engine();
        e.start();
        const created = await e.createNotification({ title: "Recusado" });
        const done = await waitForNotification(() => e.getNotification(created.id));
        expect(done).toMatchObject({ status: "completed", counts: { queued: 4, accepted: 3, retrying: 0, failed: 1, removed: 0 } });
        expect(requestsFor("s1")).toBe(1);
        const flagged = await database.db.selectFrom("subscriptions").select("endpoint").where("vapid_mismatch_at", "is not", null).execute();
        expect(flagged.map((r) => r.endpoint)).toEqual(status === 403 ? [fake.endpointFor("s1")] : []);
        expect(await database.db.selectFrom("subscriptions").select("id").execute()).toHaveLength(4);
      });
    }

    it("warns of a 403 (VAPID key mismatch), flags the subscription and sends it nothing more until it registers again", async () => {
      await seedSubscriptions(database, fake, 4);
      fake.setBehaviour({ id: "s1", action: { kind: "status", status: 403 } });
      const warnings: { details: object; message: string }[] = [];
      const logger = { info: () => undefined, error: () => undefined, warn: (details: object, message: string) => void warnings.push({ details, message }) };
      const e = createDeliveryEngine({ repositories: createRepositories(database), transport, vapid, clock: clock.now, random: () => 0.5, options: TEST_OPTIONS, logger });
      engines.push(e);
      e.start();

      const send = async (title: string): Promise<Notification> => {
        const created = await e.createNotification({ title });
        return waitForNotification(() => e.getNotification(created.id));
      };
      const first = await send("Chave trocada");
      expect(first).toMatchObject({ status: "completed", counts: { queued: 4, accepted: 3, failed: 1 } });
      expect(warnings).toEqual([expect.objectContaining({ details: expect.objectContaining({ subscriptions: 1 }), message: expect.stringContaining("403") })]);
      // Never a whole endpoint or a key in the log.
      expect(JSON.stringify(warnings)).not.toContain("127.0.0.1");

      // Flagged: left out of the next send altogether (not counted, not requested).
      const second = await send("Depois da troca");
      expect(second).toMatchObject({ status: "completed", counts: { queued: 3, accepted: 3, failed: 0 } });
      expect(requestsFor("s1")).toBe(1);

      // The browser registers again (the bell does on every visit): the flag is cleared.
      const row = await database.db.selectFrom("subscriptions").selectAll().where("endpoint", "=", fake.endpointFor("s1")).executeTakeFirstOrThrow();
      const again = await createSubscriptionsRepository(database).register({ endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth, userAgent: null }, Date.now());
      expect(again.outcome).toBe("existing");
      fake.reset();
      const third = await send("De novo para todos");
      expect(third).toMatchObject({ status: "completed", counts: { queued: 4, accepted: 4 } });
      expect(requestsFor("s1")).toBe(1);
    });

    it("stops retrying at the attempt cap", async () => {
      await seedSubscriptions(database, fake, 3);
      fake.setBehaviour({ id: "s1", action: { kind: "status", status: 502 } });
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Desisto" });
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", counts: { queued: 3, accepted: 2, retrying: 0, failed: 1 } });
      expect(requestsFor("s1")).toBe(4); // maxAttempts
    });

    it("never schedules a retry past the message TTL", async () => {
      await seedSubscriptions(database, fake, 3);
      fake.setBehaviour({ id: "s0", action: { kind: "status", status: 503, retryAfter: 50 } });
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Expira", ttlSeconds: 100 });
      await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 2 && s.counts.retrying === 1);
      // The second attempt is due; its 503 asks for 50 s more, which would end past the 100 s TTL.
      clock.advance(60_000);
      e.wake();
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", counts: { queued: 3, accepted: 2, retrying: 0, failed: 1 } });
      expect(requestsFor("s0")).toBe(2);
    });

    it("drops a retry that comes due after the TTL without sending it", async () => {
      await seedSubscriptions(database, fake, 3);
      fake.setBehaviour({ id: "s0", times: 1, action: { kind: "status", status: 503, retryAfter: 50 } });
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Expira", ttlSeconds: 100 });
      await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted === 2 && s.counts.retrying === 1);
      clock.advance(200_000);
      e.wake();
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "completed", counts: { queued: 3, accepted: 2, retrying: 0, failed: 1 } });
      expect(requestsFor("s0")).toBe(1);
    });

    it("counts what is left of an expired send as failed, without sending it", async () => {
      await seedSubscriptions(database, fake, 50);
      const e = engine();
      const created = await e.createNotification({ title: "Tarde demais", ttlSeconds: 60 });
      clock.advance(61_000);
      e.start();
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done).toMatchObject({ status: "failed", counts: { queued: 50, accepted: 0, failed: 50 } });
      expect(fake.stats().requests).toBe(0);
    });

    it("settles every target exactly once with faults injected everywhere", async () => {
      const ids = await seedSubscriptions(database, fake, 400);
      for (const [i, id] of ids.entries()) {
        if (i % 50 === 1) fake.setBehaviour({ id, action: { kind: "status", status: 410 } });
        if (i % 50 === 2) fake.setBehaviour({ id, times: 1, action: { kind: "status", status: 500 } });
        if (i % 50 === 3) fake.setBehaviour({ id, times: 1, action: { kind: "reset" } });
        if (i % 50 === 4) fake.setBehaviour({ id, action: { kind: "status", status: 400 } });
        if (i % 50 === 5) fake.setBehaviour({ id, times: 1, action: { kind: "status", status: 429, retryAfter: 1 } });
      }
      const e = engine();
      e.start();
      const created = await e.createNotification({ title: "Caos" });
      const done = await waitForNotification(() => e.getNotification(created.id));
      expect(done.counts).toEqual({ queued: 400, accepted: 384, retrying: 0, failed: 8, removed: 8, limited: 0, asleep: 0, waiting: 0, expired: 0 });
      expect(total(done)).toBe(done.counts.queued);
      expect(fake.stats().duplicateAcceptances).toBe(0);
    });

    it("cancels a send: no more pushes, retries dropped", async () => {
      await seedSubscriptions(database, fake, 300);
      fake.setBehaviour({ latencyMs: 30 });
      const e = engine({ lanes: 1 });
      e.start();
      const created = await e.createNotification({ title: "Cancelar" });
      await waitForNotification(() => e.getNotification(created.id), (s) => s.counts.accepted > 0);
      const cancelled = await e.cancelNotification(created.id);
      expect(cancelled.status).toBe("cancelled");
      await e.stop({ graceful: true });
      const after = fake.stats().requests;
      expect(after).toBeLessThan(300);
      expect((await e.getNotification(created.id))?.status).toBe("cancelled");
      expect(await database.db.selectFrom("delivery_jobs").select("id").where("done", "=", 0).execute()).toEqual([]);
      await expect(e.cancelNotification(9999)).rejects.toMatchObject({ code: "send_not_found" });
    });

    it("lets another worker finish a send at once after a graceful stop, without duplicates", async () => {
      const ids = await seedSubscriptions(database, fake, 600);
      fake.setBehaviour({ latencyMs: 5 });
      const first = engine();
      first.start();
      const created = await first.createNotification({ title: "Revezamento" });
      await waitForNotification(() => first.getNotification(created.id), (s) => s.counts.accepted >= 100);
      await first.stop({ graceful: true });
      const midway = await first.getNotification(created.id);
      expect(midway?.counts.accepted).toBeLessThan(600);
      // The leases were given back: the second worker does not wait the 30 s lease out.
      const second = engine();
      second.start();
      const done = await waitForNotification(() => second.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 600, accepted: 600 });
      expect([...fake.stats().acceptedById.keys()].sort()).toEqual([...ids].sort());
      expect(fake.stats().duplicateAcceptances).toBe(0);
    });
  });
}
