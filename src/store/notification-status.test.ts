import { describe, expect, it } from "vitest";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aNewNotification as aSend, insertPlaceholderSubscriptions as seed } from "../../test/support/delivery.js";
import { createDeliveryQueueRepository, type RangeBatchResult } from "./delivery-queue-repository.js";
import { createNoticesRepository } from "./notices-repository.js";
import { createNotificationsRepository } from "./notifications-repository.js";
import { createRetryCausesRepository, groupRetryCauses } from "./retry-causes-repository.js";
import { sendStates } from "./migrations/0010-send-states.js";
import type { Kysely } from "kysely";

const NOTHING: RangeBatchResult = { accepted: [], failed: [], gone: [], flagged: [], retries: [] };

describe("grouping a batch's retries by cause", () => {
  it("adds up pushes per host, reason and status, keeps the soonest retry, and a body detail only for an HTTP answer", () => {
    const groups = groupRetryCauses([
      { host: "fcm.googleapis.com", reason: "unavailable", status: 503, notBefore: 300, detail: "Service\r\nUnavailable" },
      { host: "fcm.googleapis.com", reason: "unavailable", status: 503, notBefore: 200 },
      { host: "fcm.googleapis.com", reason: "rate_limited", status: 429, notBefore: 900 },
      { host: "updates.push.services.mozilla.com", reason: "timeout", status: 0, notBefore: 500, detail: "connect ETIMEDOUT 10.0.0.1:443" },
    ]);
    expect(groups).toEqual([
      { host: "fcm.googleapis.com", reason: "unavailable", status: 503, pushes: 2, nextAttemptAt: 200, detail: "Service Unavailable" },
      { host: "fcm.googleapis.com", reason: "rate_limited", status: 429, pushes: 1, nextAttemptAt: 900, detail: null },
      { host: "updates.push.services.mozilla.com", reason: "timeout", status: 0, pushes: 1, nextAttemptAt: 500, detail: null },
    ]);
  });
});

for (const dialect of DIALECTS) {
  describe(`send states on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));

    it("records why pushes are retried per push service host, one row per cause across batches, and when the next attempt is", async () => {
      await seed(database, 3);
      const notifications = createNotificationsRepository(database);
      const notification = await notifications.createWithJobs(aSend(), { now: 0, jobSize: 10, payloadFor: () => "{}" });
      const queue = createDeliveryQueueRepository(database);
      const causes = createRetryCausesRepository(database);
      expect(await causes.forNotification(notification.id)).toEqual({ waiting: 0, nextAttemptAt: null, causes: [] });

      const job = (await queue.claimJob({ owner: "a", now: 1, leaseMs: 1000 }))!;
      const [t0, t1, t2] = await queue.listTargets(job, job.cursor, 10);
      await queue.checkpoint(
        { owner: "a", now: 10, leaseMs: 1000 },
        {
          job,
          cursor: job.toId,
          result: {
            ...NOTHING,
            retries: [
              { recipient: t0!, attempt: 2, notBefore: 5_000, reason: "unavailable", host: "push.example.com", status: 503, detail: "try later" },
              { recipient: t1!, attempt: 2, notBefore: 4_000, reason: "unavailable", host: "push.example.com", status: 503 },
              { recipient: t2!, attempt: 2, notBefore: 9_000, reason: "timeout", host: "push.example.com", status: 0 },
            ],
          },
        },
      );
      expect(await causes.forNotification(notification.id)).toEqual({
        waiting: 3,
        nextAttemptAt: 4_000,
        causes: [
          { host: "push.example.com", reason: "unavailable", status: 503, pushes: 2, nextAttemptAt: 4_000, detail: "try later", firstAt: 10, lastAt: 10 },
          { host: "push.example.com", reason: "timeout", status: 0, pushes: 1, nextAttemptAt: 9_000, detail: null, firstAt: 10, lastAt: 10 },
        ],
      });

      // The first two come due; the service answers 503 again for one (the host is read from
      // the subscription's endpoint), the other is accepted.
      const due = await queue.claimRetries({ owner: "a", now: 5_000, leaseMs: 1000 }, 10);
      expect(due.map((r) => r.subscriptionId).sort()).toEqual([t0!.id, t1!.id].sort());
      await queue.settleRetries({ owner: "a", now: 5_001, leaseMs: 1000 }, [
        { retry: due.find((r) => r.subscriptionId === t0!.id)!, outcome: { kind: "retry", notBefore: 20_000, reason: "unavailable", status: 503 } },
        { retry: due.find((r) => r.subscriptionId === t1!.id)!, outcome: { kind: "accepted" } },
      ]);
      const after = await causes.forNotification(notification.id);
      expect(after.waiting).toBe(2);
      expect(after.nextAttemptAt).toBe(9_000);
      // Newest first: the 503 row was added to (3 retries in all), its detail kept, its next attempt moved.
      expect(after.causes[0]).toEqual({ host: "push.example.com", reason: "unavailable", status: 503, pushes: 3, nextAttemptAt: 20_000, detail: "try later", firstAt: 10, lastAt: 5_001 });
      const rows = await database.db.selectFrom("notification_retry_causes").selectAll().execute();
      expect(rows).toHaveLength(2);
    });

    it("marks a send that went out to nobody as no_recipients, now or when a scheduled one comes due", async () => {
      const notifications = createNotificationsRepository(database);
      const now = await notifications.createWithJobs(aSend({ title: "Para ninguém" }), { now: 100, jobSize: 10, payloadFor: () => "{}" });
      expect(now).toMatchObject({ status: "no_recipients", finishedAt: 100, counts: { queued: 0 } });
      const later = await notifications.createWithJobs(aSend({ title: "Mais tarde", sendAt: 1_000 }), { now: 100, jobSize: 10, payloadFor: () => "{}" });
      expect(later.status).toBe("scheduled");
      const [started] = await notifications.startDue(1_000, { jobSize: 10, limit: 5 });
      expect(started).toMatchObject({ id: later.id, status: "no_recipients", finishedAt: 1_000 });
      // A notification that had someone is still completed (the state says nothing about the others).
      await seed(database, 1);
      const someone = await notifications.createWithJobs(aSend(), { now: 2_000, jobSize: 10, payloadFor: () => "{}" });
      expect(someone.status).toBe("queued");
    });

    it("migrates: earlier sends to nobody become no_recipients, others stay as they were; and back down", async () => {
      const notifications = createNotificationsRepository(database);
      const options = { now: 100, jobSize: 10, payloadFor: () => "{}" };
      const empty = await notifications.createWithJobs(aSend({ title: "Vazio" }), options);
      await seed(database, 1);
      const full = await notifications.createWithJobs(aSend({ title: "Cheio" }), options);
      const db = database.db as unknown as Kysely<unknown>;
      await sendStates.down!(db, dialect);
      const statusOf = async (id: number) => (await database.db.selectFrom("notifications").select("status").where("id", "=", id).executeTakeFirstOrThrow()).status;
      // What 0008 left: a send to nobody was "completed".
      expect(await statusOf(empty.id)).toBe("completed");
      await database.db.updateTable("notifications").set({ status: "completed" }).where("id", "=", full.id).execute();
      await sendStates.up(db, dialect);
      expect(await statusOf(empty.id)).toBe("no_recipients");
      expect(await statusOf(full.id)).toBe("completed");
      expect((await notifications.findById(full.id))?.notice).toBe("public");
    });

    it("keeps a hidden send off Avisos, shows it again, and never brings back a removed one", async () => {
      await seed(database, 1);
      const notifications = createNotificationsRepository(database);
      const notices = createNoticesRepository(database);
      const options = { now: 100, jobSize: 10, payloadFor: () => "{}" };
      const shown = await notifications.createWithJobs(aSend({ title: "Público" }), options);
      const hidden = await notifications.createWithJobs(aSend({ title: "Teste interno", notice: "hidden" }), options);
      expect(shown.notice).toBe("public");
      expect(hidden.notice).toBe("hidden");
      const titles = async () => (await notices.list({ limit: 10 })).map((n) => n.title);
      expect(await titles()).toEqual(["Público"]);
      // Hiding never stamps a notification published meanwhile: only withdrawals are listed.
      expect(await notices.withdrawnSince(0, 10)).toEqual([]);

      expect(await notifications.setNotice(hidden.id, "public", 200)).toMatchObject({ notice: "public" });
      expect((await titles()).sort()).toEqual(["Público", "Teste interno"]);

      expect(await notifications.setNotice(shown.id, "hidden", 300)).toMatchObject({ notice: "hidden" });
      expect(await titles()).toEqual(["Teste interno"]);
      expect(await notices.withdrawnSince(250, 10)).toEqual([{ id: shown.id, channels: [], changedAt: 300 }]);
      expect(await notices.withdrawnSince(301, 10)).toEqual([]);

      expect(await notifications.setNotice(hidden.id, "removed", 400)).toMatchObject({ notice: "removed" });
      expect(await notifications.setNotice(hidden.id, "public", 500)).toBe("notice_removed");
      expect(await notifications.setNotice(hidden.id, "hidden", 500)).toBe("notice_removed");
      // Removing again is no error: it is removed.
      expect(await notifications.setNotice(hidden.id, "removed", 500)).toMatchObject({ notice: "removed" });
      expect(await titles()).toEqual([]);
      expect((await notices.withdrawnSince(0, 10)).map((w) => [w.id, w.changedAt])).toEqual([
        [shown.id, 300],
        [hidden.id, 400],
      ]);
      expect(await notifications.setNotice(999_999, "hidden", 500)).toBeUndefined();
    });
  });
}
