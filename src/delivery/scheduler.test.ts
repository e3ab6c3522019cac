import { describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabaseLocation, openTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aNewNotification, insertPlaceholderSubscriptions, seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import { setUpAdmin } from "../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { fakePushServerEnv } from "../../test/support/worker-env.js";
import { createNotificationsRepository, type NewNotification } from "../store/notifications-repository.js";
import { createScheduler } from "./scheduler.js";

const aSend = (overrides: Partial<NewNotification> = {}) => aNewNotification({ title: "Agendada", ttlSeconds: 600, ...overrides });

const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };



const create = (database: TestDatabase, input: NewNotification, now: number) =>
  createNotificationsRepository(database).createWithJobs(input, { now, jobSize: 10, payloadFor: () => "{}" });

for (const dialect of DIALECTS) {
  describe(`scheduled sends on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));

    it("stores a future send as scheduled with no jobs, and takes its targets when it goes out", async () => {
      await insertPlaceholderSubscriptions(database, 5, 0);
      const send = await create(database, aSend({ sendAt: 10_000 }), 1_000);
      expect(send).toMatchObject({ status: "scheduled", sendAt: 10_000, expiresAt: 10_000 + 600_000, counts: { queued: 0 } });
      expect(await database.db.selectFrom("delivery_jobs").selectAll().execute()).toEqual([]);

      const repo = createNotificationsRepository(database);
      expect(await repo.startDue(9_999, { jobSize: 10, limit: 10 })).toEqual([]);
      await insertPlaceholderSubscriptions(database, 20, 5); // subscribed while it waited: targets too
      const [started, ...rest] = await repo.startDue(12_000, { jobSize: 10, limit: 10 });
      expect(rest).toEqual([]);
      expect(started).toMatchObject({ id: send.id, status: "queued", sendAt: 10_000, expiresAt: 12_000 + 600_000, counts: { queued: 25 } });
      const jobs = await database.db.selectFrom("delivery_jobs").select("id").where("notification_id", "=", send.id).execute();
      expect(jobs).toHaveLength(3);
      expect(await repo.startDue(13_000, { jobSize: 10, limit: 10 })).toEqual([]);
    });

    it("ends at once (no_recipients) a scheduled send that finds nobody, and never starts a cancelled one", async () => {
      const repo = createNotificationsRepository(database);
      const empty = await create(database, aSend({ sendAt: 2_000 }), 1_000);
      const cancelled = await create(database, aSend({ sendAt: 2_000 }), 1_000);
      expect((await repo.cancel(cancelled.id, 1_500))?.status).toBe("cancelled");
      const started = await repo.startDue(3_000, { jobSize: 10, limit: 10 });
      expect(started.map((s) => [s.id, s.status, s.counts.queued])).toEqual([[empty.id, "no_recipients", 0]]);
      expect((await repo.findById(cancelled.id))?.status).toBe("cancelled");
    });

    // Several connections at once: PostgreSQL only. better-sqlite3 is synchronous, so two SQLite
    // connections in ONE process would block each other's lock wait (between processes,
    // BEGIN IMMEDIATE serialises the claims; the conditional UPDATE is the same).
    it.runIf(dialect === "postgres")("starts each due send exactly once when several processes look at the same moment", async () => {
      await insertPlaceholderSubscriptions(database, 3, 0);
      const sends = await Promise.all(Array.from({ length: 8 }, (_, i) => create(database, aSend({ sendAt: 2_000 + i }), 1_000)));
      const handles = Array.from({ length: 3 }, () => openTestDatabase(database.location));
      try {
        const results = await Promise.all(handles.map((h) => createNotificationsRepository(h).startDue(5_000, { jobSize: 10, limit: 100 })));
        const ids = results.flat().map((s) => s.id).sort((a, b) => a - b);
        expect(ids).toEqual(sends.map((s) => s.id).sort((a, b) => a - b));
        const jobs = await database.db.selectFrom("delivery_jobs").select("notification_id").execute();
        expect(jobs).toHaveLength(8);
      } finally {
        await Promise.all(handles.map((h) => h.destroy()));
      }
    });

    it("has the scheduler start due sends and tell about each", async () => {
      await insertPlaceholderSubscriptions(database, 2, 0);
      let now = 1_000;
      const send = await create(database, aSend({ sendAt: 5_000 }), now);
      const told: number[] = [];
      let signal: () => void = () => undefined;
      const startedOne = new Promise<void>((resolve) => (signal = resolve));
      const scheduler = createScheduler({
        notifications: createNotificationsRepository(database),
        clock: () => now,
        jobSize: 10,
        pollMs: 10,
        logger: SILENT,
        onStarted: (s) => {
          told.push(s.id);
          signal();
        },
      });
      scheduler.start();
      try {
        now = 6_000;
        scheduler.wake();
        await startedOne;
        expect(told).toEqual([send.id]);
        expect((await createNotificationsRepository(database).findById(send.id))?.status).toBe("queued");
      } finally {
        await scheduler.stop();
      }
    });
  });
}

describe("a scheduled send across a restart", () => {
  const fake = useFakePushService();

  for (const dialect of DIALECTS) {
    // PostgreSQL: two servers (two schedulers) race for it. SQLite is one process by design: one server.
    it(`goes out once, after the server that stored it stopped, when ${dialect === "postgres" ? "two new servers start" : "a new server starts"} (${dialect})`, async () => {
      const env = fakePushServerEnv();
      const { location, drop } = await createTestDatabaseLocation(dialect);
      const servers: TestServer[] = [];
      try {
        // The first server stores the send and stops. It runs no worker or scheduler, so however
        // late it stops, the notification cannot have gone out from it: only the restart sends it.
        const first = await startTestServer({ location, env: { ...env, SINO_WORKER_EMBEDDED: "false" } });
        servers.push(first);
        const ids = await seedSubscriptions(first.database, fake(), 30, `${dialect}-restart-`);
        const admin = await setUpAdmin({ url: first.url, origin: first.url });
        const res = await admin.post("/api/v1/notifications", { title: "Depois do reinício", sendAt: new Date(Date.now() + 1_500).toISOString() });
        expect(res.body.notification).toMatchObject({ status: "scheduled", counts: { queued: 0 } });
        const id = Number(res.body.notification.id);
        await servers.pop()!.close();
        fake().reset();

        const restarts = dialect === "postgres" ? 2 : 1;
        servers.push(...(await Promise.all(Array.from({ length: restarts }, () => startTestServer({ location, env })))));
        const done = await waitForNotification(() => servers[0]!.delivery.getNotification(id));
        expect(done).toMatchObject({ status: "completed", counts: { queued: 30, accepted: 30 } });
        const stats = fake().stats();
        expect(new Set(stats.acceptedById.keys())).toEqual(new Set(ids));
        expect(stats.duplicateAcceptances).toBe(0);
        expect(stats.requests).toBe(30);
      } finally {
        await Promise.all(servers.map((s) => s.close()));
        await drop();
      }
    });
  }
});
