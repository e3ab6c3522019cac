import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { createDeliveryEngine } from "./engine.js";
import { createHygieneTask } from "./hygiene-task.js";
import { createPushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createRepositories } from "../store/repositories.js";
import { createHygieneRepository } from "../store/hygiene-repository.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { useSmallBatchEngine } from "../../test/support/delivery-engine.js";
import { seedFourPeople, waitForNotification } from "../../test/support/delivery.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import type { SegmentNode } from "../shared/segments/tree.js";
import { createNotificationsRepository } from "../store/notifications-repository.js";
import { createSavedSegmentsRepository } from "../store/saved-segments-repository.js";
import type { SegmentAudience } from "../store/segment-audience.js";

const fake = useFakePushService();

const PREMIUM: SegmentNode = { tag: "plano", op: "eq", value: "premium" };
const VIP: SegmentNode = { tag: "vip", op: "exists" };

function segmentAudience(overrides: Partial<SegmentAudience>): SegmentAudience {
  return { kind: "segment", segmentId: null, name: null, tree: null, text: null, tagKinds: "trusted", at: null, ...overrides };
}

for (const dialect of DIALECTS) {
  describe(`sends to a segment on ${dialect} (the engine: small batches and jobs, no encryption threads)`, () => {
    const run = useSmallBatchEngine(dialect, fake);

    /**
     * `seedFourPeople`'s 30 subscriptions and people p0–p3 (p0 has s0, s12, s24; p2 s6, s18).
     * Trusted tags: p0 `plano:premium`; p1 `plano:basico`; p2 `plano:premium` and `vip`; p3 none.
     */
    async function seed() {
      const { fakeIds } = await seedFourPeople(run.database, fake());
      const tag = (person_id: string, key: string, value: string | null) => ({ person_id, key, value, num_value: null, time_value: null, updated_at: 1 });
      await run.database.db
        .insertInto("person_tags")
        .values([tag("p0", "plano", "premium"), tag("p1", "plano", "basico"), tag("p2", "plano", "premium"), tag("p2", "vip", null)])
        .execute();
      return { fakeIds };
    }

    const received = () => new Set(fake().stats().log.map((entry) => entry.id));

    it("pushes to the subscriptions the expression matches, and to no other, across jobs and sub-batches", async () => {
      const { fakeIds } = await seed();
      const created = await run.engine.createNotification({ title: "Só premium", audience: segmentAudience({ tree: PREMIUM }) });
      expect(created.audience).toMatchObject({ kind: "segment", tree: PREMIUM, tagKinds: "trusted" });
      expect((created.audience as SegmentAudience).at).toBeTypeOf("number");
      expect(created.counts.queued).toBe(5);
      const done = await waitForNotification(() => run.engine.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 5, accepted: 5, failed: 0 });
      expect(received()).toEqual(new Set([0, 12, 24, 6, 18].map((i) => fakeIds[i]!)));
      expect(fake().stats().duplicateAcceptances).toBe(0);
    });

    /** Delivers what is queued with an engine of its own (the shared one is stopped first), then stops it. */
    async function deliverWithNewEngine(id: number) {
      const transport = createPushTransport({
        policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
        ca: loadTestTls().ca,
        requestTimeoutMs: 10_000,
      });
      const engine = createDeliveryEngine({
        repositories: createRepositories(run.database),
        transport,
        vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" }),
        options: { lanes: 2, batchSize: 7, jobSize: 10, pollMs: 20, encryptionThreads: 0 },
      });
      engine.start();
      try {
        return await waitForNotification(() => engine.getNotification(id));
      } finally {
        await engine.stop({ graceful: true });
        await transport.close();
      }
    }

    const targetsOf = async (id: number) =>
      (await run.database.db.selectFrom("notification_targets").select("subscription_id").where("notification_id", "=", id).execute()).length;

    it("reaches who matched when it started: tags changed before the workers read change nobody, and the counts add up", async () => {
      const { fakeIds } = await seed();
      // No worker reads the notification until the tags have changed.
      await run.engine.stop({ graceful: true });
      const created = await run.engine.createNotification({ title: "Só premium", audience: segmentAudience({ tree: PREMIUM }) });
      expect(created).toMatchObject({ status: "queued", counts: { queued: 5 } });
      expect(await targetsOf(created.id)).toBe(5);

      // p0 stops being premium, p1 becomes premium: after the start, so neither counts.
      await run.database.db.deleteFrom("person_tags").where("person_id", "=", "p0").where("key", "=", "plano").execute();
      await run.database.db.updateTable("person_tags").set({ value: "premium" }).where("person_id", "=", "p1").where("key", "=", "plano").execute();

      const done = await deliverWithNewEngine(created.id);
      expect(received()).toEqual(new Set([0, 12, 24, 6, 18].map((i) => fakeIds[i]!)));
      expect(done.counts).toMatchObject({ queued: 5, accepted: 5 });
      expect(done.counts.accepted + done.counts.failed + done.counts.removed).toBe(done.counts.queued);
    });

    it("hygiene deletes the targets of finished sends only, in chunks", async () => {
      await seed();
      await run.engine.stop({ graceful: true });
      const finished = await run.engine.createNotification({ title: "Premium", audience: segmentAudience({ tree: PREMIUM }) });
      const cancelled = await run.engine.createNotification({ title: "VIP", audience: segmentAudience({ tree: VIP }) });
      const going = await run.engine.createNotification({ title: "Premium, ainda", audience: segmentAudience({ tree: PREMIUM }) });
      await createNotificationsRepository(run.database).cancel(cancelled.id, Date.now());
      await run.database.db.updateTable("notifications").set({ status: "completed", finished_at: Date.now() }).where("id", "=", finished.id).execute();
      expect([await targetsOf(finished.id), await targetsOf(cancelled.id), await targetsOf(going.id)]).toEqual([5, 2, 5]);

      const hygiene = createHygieneTask({
        repository: createHygieneRepository(run.database),
        sender: { send: () => Promise.reject(new Error("no push expected")) },
        clock: Date.now,
        logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
        // Expiry off: the targets are deleted all the same.
        options: { expiryDays: 0, warningDays: 0, batch: 2 },
      });
      expect(await hygiene.perform()).toEqual({ warned: 0, removed: 0, targets: 7 });
      expect([await targetsOf(finished.id), await targetsOf(cancelled.id), await targetsOf(going.id)]).toEqual([0, 0, 5]);
    });

    it("ends at once as no_recipients when nothing matches", async () => {
      await seed();
      const created = await run.engine.createNotification({ title: "Ninguém", audience: segmentAudience({ tree: { tag: "plano", op: "eq", value: "ouro" } }) });
      expect(created).toMatchObject({ status: "no_recipients", counts: { queued: 0 } });
    });

    it("reads a saved segment when a scheduled send goes out: an edit after scheduling changes who it reaches", async () => {
      const { fakeIds } = await seed();
      const segments = createSavedSegmentsRepository(run.database);
      const saved = await segments.create({ name: "Premium", description: null, tree: PREMIUM, tagKinds: "trusted" }, Date.now());
      if (typeof saved === "string") throw new Error(saved);
      const at = Date.now() + 3_600_000;
      const scheduled = await run.engine.createNotification({ title: "Mais tarde", audience: segmentAudience({ segmentId: saved.id, name: saved.name }), sendAt: at });
      expect(scheduled).toMatchObject({ status: "scheduled", counts: { queued: 0 }, audience: { tree: null, at: null } });
      expect(await segments.remove(saved.id)).toBe("in_use");
      expect((await segments.sends(saved.id, 20)).map((send) => send.id)).toEqual([scheduled.id]);

      await segments.update(saved.id, { tree: VIP }, Date.now());
      const [started] = await createNotificationsRepository(run.database).startDue(at, { jobSize: 10, limit: 5 });
      expect(started).toMatchObject({ id: scheduled.id, status: "queued", counts: { queued: 2 }, audience: { segmentId: saved.id, name: "Premium", tree: VIP, at } });
      run.engine.wake();
      const done = await waitForNotification(() => run.engine.getNotification(scheduled.id));
      expect(done.counts).toMatchObject({ queued: 2, accepted: 2 });
      expect(received()).toEqual(new Set([6, 18].map((i) => fakeIds[i]!)));
    });
  });
}
