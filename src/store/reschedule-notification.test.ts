/**
 * Editing a scheduled notification, on SQLite and PostgreSQL: the content, time and audience rows are
 * replaced while it is scheduled, never after the scheduler claimed it, and an edit that moves it
 * later is never started at the old time — including when the edit and the scheduler's claim
 * run at the same moment.
 */
import { describe, expect, it } from "vitest";
import { sql } from "kysely";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aNewNotification, insertPlaceholderSubscriptions } from "../../test/support/delivery.js";
import { createNotificationsRepository, type NewNotification } from "./notifications-repository.js";

const JOBS = { jobSize: 10, limit: 10 };
const payloadFor = ({ id, tag }: { id: number; tag: string }) => JSON.stringify({ id, tag });
const create = (database: TestDatabase, input: NewNotification, now: number) =>
  createNotificationsRepository(database).createWithJobs(input, { now, jobSize: 10, payloadFor });

for (const dialect of DIALECTS) {
  describe(`editing a scheduled send on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, async (created) => {
      database = created;
      await insertPlaceholderSubscriptions(database, 4, 0);
    });

    it("replaces its content, time and audience rows, and it goes out as edited at the new time", async () => {
      const repo = createNotificationsRepository(database);
      // Site 1: Sino's own, built in.
      const notification = await create(database, aNewNotification({ title: "Antes", body: "corpo", sendAt: 10_000, audience: { kind: "everyone", sites: [1] } }), 1_000);
      expect(await database.db.selectFrom("notification_sites").select("site_id").where("notification_id", "=", notification.id).execute()).toHaveLength(1);

      const edited = await repo.reschedule(notification.id, aNewNotification({ title: "Depois", icon: "https://a.example.com/i.png", ttlSeconds: 60, sendAt: 20_000 }), { now: 2_000, payloadFor });
      expect(edited).toMatchObject({ id: notification.id, status: "scheduled", title: "Depois", body: null, icon: "https://a.example.com/i.png", sendAt: 20_000, tag: `sino-${notification.id}`, ttlSeconds: 60 });
      expect(JSON.parse((edited as { payload: string }).payload)).toEqual({ id: notification.id, tag: `sino-${notification.id}` });
      expect(await database.db.selectFrom("notification_sites").select("site_id").where("notification_id", "=", notification.id).execute()).toEqual([]);

      // Due at the old time no more.
      expect(await repo.startDue(15_000, JOBS)).toEqual([]);
      const [started] = await repo.startDue(20_000, JOBS);
      expect(started).toMatchObject({ id: notification.id, status: "queued", title: "Depois", counts: { queued: 4 }, expiresAt: 20_000 + 60_000 });
    });

    it("refuses to edit a send once it started or was cancelled, and says so for an unknown one", async () => {
      const repo = createNotificationsRepository(database);
      const started = await create(database, aNewNotification({ title: "Vai", sendAt: 5_000 }), 1_000);
      const cancelled = await create(database, aNewNotification({ title: "Não vai", sendAt: 5_000 }), 1_000);
      await repo.cancel(cancelled.id, 2_000);
      expect((await repo.startDue(6_000, JOBS)).map((s) => s.id)).toEqual([started.id]);

      expect(await repo.reschedule(started.id, aNewNotification({ title: "Tarde", sendAt: 9_000 }), { now: 6_500, payloadFor })).toBe("not_scheduled");
      expect(await repo.reschedule(cancelled.id, aNewNotification({ title: "Tarde", sendAt: 9_000 }), { now: 6_500, payloadFor })).toBe("not_scheduled");
      expect(await repo.reschedule(999_999, aNewNotification({ sendAt: 9_000 }), { now: 6_500, payloadFor })).toBeUndefined();
      expect(await repo.findById(started.id)).toMatchObject({ title: "Vai", status: "queued" });
    });

    it("makes a send due now when edited to a time not in the future", async () => {
      const repo = createNotificationsRepository(database);
      const notification = await create(database, aNewNotification({ sendAt: 50_000 }), 1_000);
      expect(await repo.reschedule(notification.id, aNewNotification({ title: "Agora" }), { now: 3_000, payloadFor })).toMatchObject({ sendAt: 3_000, status: "scheduled" });
      expect((await repo.startDue(3_000, JOBS)).map((s) => s.title)).toEqual(["Agora"]);
    });

    it("never lets an edit and the scheduler's claim both win when they run at the same moment", async () => {
      // SQLite: one process's connections take turns (BEGIN IMMEDIATE); PostgreSQL: two pools, so
      // the edit and the claim really run at once and meet on the row lock.
      const other = dialect === "postgres" ? openTestDatabase(database.location) : database;
      try {
        const editor = createNotificationsRepository(other);
        const scheduler = createNotificationsRepository(database);
        for (let round = 0; round < 12; round++) {
          const notification = await create(database, aNewNotification({ title: "Original", sendAt: 10_000 }), 1_000);
          // The scheduler looks at 10_000 (due); the edit moves it to 90_000 (not due then). Every
          // other round the scheduler goes first: on SQLite's one connection its look then runs,
          // the edit's transaction next, and its claim last — the claim must see the edit.
          const edit$ = () => editor.reschedule(notification.id, aNewNotification({ title: "Editado", sendAt: 90_000 }), { now: 9_000, payloadFor });
          const start$ = () => scheduler.startDue(10_000, JOBS);
          const [edit, started] = round % 2 === 0 ? await Promise.all([edit$(), start$()]) : await Promise.all([start$(), edit$()]).then(([s, e]) => [e, s] as const);
          const row = await scheduler.findById(notification.id);
          if (edit === "not_scheduled") {
            // The claim won: it went out as it was, and the edit changed nothing.
            expect(started.map((s) => s.id)).toEqual([notification.id]);
            expect(row).toMatchObject({ title: "Original", status: "queued", sendAt: 10_000 });
          } else {
            // The edit won: nothing started, and it waits for its new time with its new content.
            expect(started).toEqual([]);
            expect(row).toMatchObject({ title: "Editado", status: "scheduled", sendAt: 90_000 });
          }
          await scheduler.cancel(notification.id, 95_000);
        }
      } finally {
        if (other !== database) await other.destroy();
      }
    });

    it.runIf(dialect === "postgres")("makes an edit wait for a claim in progress and then refuse, never overwrite a started send", async () => {
      const editorDb = openTestDatabase(database.location);
      try {
        const notification = await create(database, aNewNotification({ title: "Original", sendAt: 10_000 }), 1_000);
        let edit: Promise<unknown> | undefined;
        await database.db.transaction().execute(async (trx) => {
          // The scheduler's claim, held open: the row is locked and says `queued`, not yet committed.
          await trx.updateTable("notifications").set({ status: "queued" }).where("id", "=", notification.id).where("status", "=", "scheduled").execute();
          edit = createNotificationsRepository(editorDb).reschedule(notification.id, aNewNotification({ title: "Editado", sendAt: 90_000 }), { now: 9_000, payloadFor });
          // Commit only once the edit is blocked on the row lock (pg_stat_activity says so, read
          // on another connection of the pool).
          for (;;) {
            const waiting = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and query like 'update "notifications"%'`.execute(database.db);
            if (Number(waiting.rows[0]!.n) > 0) break;
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        });
        expect(await edit).toBe("not_scheduled");
        expect(await createNotificationsRepository(database).findById(notification.id)).toMatchObject({ title: "Original", status: "queued" });
      } finally {
        await editorDb.destroy();
      }
    });
  });
}
