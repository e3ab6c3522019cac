import { describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aNewNotification as aSend, insertPlaceholderSubscriptions as seed } from "../../test/support/delivery.js";
import { createDeliveryQueueRepository, type RangeBatchResult } from "./delivery-queue-repository.js";
import type { Recipient } from "./recipient-outcomes.js";
import { createNotificationsRepository } from "./notifications-repository.js";

const NOTHING: RangeBatchResult = { accepted: [], failed: [], gone: [], flagged: [], retries: [] };

/** `count` recipients with made-up subscription ids from `from` (recipient rows have no foreign key). */
function someRecipients(count: number, from = 1): Recipient[] {
  return Array.from({ length: count }, (_, i) => ({ id: from + i, personId: null, siteId: 1 }));
}



for (const dialect of DIALECTS) {
  describe(`delivery queue on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));

    it("stores a send with one range job per jobSize ids, covering min..max at that moment", async () => {
      await seed(database, 25);
      const send = await createNotificationsRepository(database).createWithJobs(aSend(), {
        now: 1000,
        jobSize: 10,
        payloadFor: ({ tag }) => JSON.stringify({ title: "t", tag }),
      });
      expect(send).toMatchObject({ status: "queued", tag: `sino-${send.id}`, expiresAt: 1000 + 3_600_000, counts: { queued: 25 } });
      expect(JSON.parse(send.payload)).toEqual({ title: "t", tag: `sino-${send.id}` });
      const jobs = await database.db.selectFrom("delivery_jobs").select(["cursor", "to_id"]).orderBy("id").execute();
      const ids = (await database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
      expect(jobs.map((j) => [Number(j.cursor), Number(j.to_id)])).toEqual([
        [ids[0]! - 1, ids[9]!],
        [ids[9]!, ids[19]!],
        [ids[19]!, ids[24]!],
      ]);
    });

    it("walks a segment send's targets as taken when it started, and expires exactly those", async () => {
      await seed(database, 12);
      const ids = (await database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
      // Every third subscription is vip's person.
      for (const id of ids.filter((_, i) => i % 3 === 0)) await database.db.updateTable("subscriptions").set({ person_id: "vip" }).where("id", "=", id).execute();
      await database.db.insertInto("person_tags").values({ person_id: "vip", key: "vip", value: null, num_value: null, time_value: null, updated_at: 1 }).execute();
      const audience = { kind: "segment", segmentId: null, name: null, tree: { tag: "vip", op: "exists" }, text: null, tagKinds: "trusted", at: null } as const;
      const send = await createNotificationsRepository(database).createWithJobs(aSend({ audience }), { now: 0, jobSize: 100, payloadFor: () => "{}" });
      expect(send.counts.queued).toBe(4);
      // Tagged after the start: not a target.
      await database.db.updateTable("subscriptions").set({ person_id: "vip" }).where("id", "=", ids[1]!).execute();

      const queue = createDeliveryQueueRepository(database);
      const job = (await queue.claimJob({ owner: "a", now: 1000, leaseMs: 500 }))!;
      const segmentTargets = { people: false, segment: true };
      expect((await queue.listTargets(job, job.cursor, 100, segmentTargets)).map((t) => t.id)).toEqual([ids[0], ids[3], ids[6], ids[9]]);
      expect((await queue.listTargets(job, ids[3]!, 100, segmentTargets)).map((t) => t.id)).toEqual([ids[6], ids[9]]);

      const expired = await queue.expireJob({ owner: "a", now: 1100, leaseMs: 500 }, job);
      expect(expired).toMatchObject({ status: "failed", counts: { queued: 4, failed: 4 } });
      const rows = await database.db.selectFrom("notification_recipients").select("subscription_id").where("reason", "=", "expired").orderBy("subscription_id").execute();
      expect(rows.map((r) => Number(r.subscription_id))).toEqual([ids[0], ids[3], ids[6], ids[9]]);
    });

    it("gives each job to one owner at a time, and again once its lease has run out", async () => {
      await seed(database, 5);
      await createNotificationsRepository(database).createWithJobs(aSend(), { now: 0, jobSize: 100, payloadFor: () => "{}" });
      const queue = createDeliveryQueueRepository(database);
      const first = await queue.claimJob({ owner: "a", now: 1000, leaseMs: 500 });
      expect(first).toBeDefined();
      expect(await queue.claimJob({ owner: "b", now: 1400, leaseMs: 500 })).toBeUndefined();
      const taken = await queue.claimJob({ owner: "b", now: 1500, leaseMs: 500 });
      expect(taken?.id).toBe(first?.id);
      // The first owner's checkpoint now changes nothing: the job is b's.
      expect(await queue.checkpoint({ owner: "a", now: 1600, leaseMs: 500 }, { job: first!, cursor: first!.toId, result: { ...NOTHING, accepted: someRecipients(5) } })).toBeUndefined();
      const after = await createNotificationsRepository(database).findById(first!.notificationId);
      expect(after?.counts.accepted).toBe(0);
      expect(await queue.checkpoint({ owner: "b", now: 1600, leaseMs: 500 }, { job: taken!, cursor: taken!.toId, result: { ...NOTHING, accepted: someRecipients(5) } })).toMatchObject({
        status: "completed",
        counts: { accepted: 5 },
      });
    });

    it("completes a send exactly once when its last jobs finish at the same moment", async () => {
      await seed(database, 40);
      const notifications = createNotificationsRepository(database);
      // PostgreSQL: four pools, as four worker processes would have. SQLite is one connection per
      // process by design (better-sqlite3 blocks its thread while it waits for a lock), so there
      // the four lanes share the one connection, as they do in `sino start`.
      const others = Array.from({ length: 4 }, () => (dialect === "postgres" ? openTestDatabase(database.location) : undefined));
      try {
        for (let round = 0; round < 5; round++) {
          const send = await notifications.createWithJobs(aSend(), { now: 0, jobSize: 10, payloadFor: () => "{}" });
          const queues = others.map((o) => createDeliveryQueueRepository(o ?? database));
          const jobs = await Promise.all(queues.map((q, i) => q.claimJob({ owner: `w${i}`, now: 1, leaseMs: 60_000 })));
          expect(new Set(jobs.map((j) => j?.id)).size).toBe(4);
          const results = await Promise.all(
            queues.map((q, i) => q.checkpoint({ owner: `w${i}`, now: 2, leaseMs: 60_000 }, { job: jobs[i]!, cursor: jobs[i]!.toId, result: { ...NOTHING, accepted: someRecipients(10, i * 100) } })),
          );
          expect(results.every((r) => r !== undefined)).toBe(true);
          expect(await notifications.findById(send.id)).toMatchObject({ status: "completed", finishedAt: 2, counts: { queued: 40, accepted: 40 } });
        }
      } finally {
        await Promise.all(others.map((o) => o?.destroy()));
      }
    });

    it("counts a retry once, whoever settles it, and settles one whose subscription vanished as removed", async () => {
      await seed(database, 2);
      const notifications = createNotificationsRepository(database);
      const send = await notifications.createWithJobs(aSend(), { now: 0, jobSize: 10, payloadFor: () => "{}" });
      const queue = createDeliveryQueueRepository(database);
      const job = (await queue.claimJob({ owner: "a", now: 1, leaseMs: 1000 }))!;
      const targets = await queue.listTargets(job, job.cursor, 10);
      const [s0, s1] = targets.map((t) => t.id);
      await queue.checkpoint(
        { owner: "a", now: 2, leaseMs: 1000 },
        {
          job,
          cursor: job.toId,
          result: { ...NOTHING, retries: targets.map((recipient) => ({ recipient, attempt: 2, notBefore: 100, reason: "server_error", host: "push.example.com", status: 500 })) },
        },
      );
      expect(await notifications.findById(send.id)).toMatchObject({ status: "sending", counts: { retrying: 2 } });
      expect(await queue.claimRetries({ owner: "a", now: 99, leaseMs: 1000 }, 10)).toEqual([]);

      await database.db.deleteFrom("subscriptions").where("id", "=", s1!).execute();
      const claimed = await queue.claimRetries({ owner: "a", now: 100, leaseMs: 50 }, 10);
      expect(claimed.map((r) => [r.subscriptionId, r.attempt, r.target === undefined])).toEqual([
        [s0, 2, false],
        [s1, 2, true],
      ]);
      // a's lease runs out; b takes both and settles them first.
      const byB = await queue.claimRetries({ owner: "b", now: 200, leaseMs: 1000 }, 10);
      expect(byB).toHaveLength(2);
      await queue.settleRetries({ owner: "b", now: 201, leaseMs: 1000 }, [
        { retry: byB[0]!, outcome: { kind: "accepted" } },
        { retry: byB[1]!, outcome: { kind: "removed" } },
      ]);
      await queue.settleRetries({ owner: "a", now: 202, leaseMs: 1000 }, claimed.map((retry) => ({ retry, outcome: { kind: "accepted" } })));
      expect(await notifications.findById(send.id)).toMatchObject({
        status: "completed",
        counts: { queued: 2, accepted: 1, removed: 1, failed: 0, retrying: 0 },
      });
    });
  });
}
