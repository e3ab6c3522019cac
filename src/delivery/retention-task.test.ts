import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { ADMIN, ApiClient, startOperatorServer, type OperatorServer } from "../../test/support/operators.js";
import { createNotificationEventsRepository } from "../store/notification-events-repository.js";
import { createRetentionRepository } from "../store/retention-repository.js";
import { createHygieneRepository } from "../store/hygiene-repository.js";
import { createHygieneTask } from "./hygiene-task.js";
import { createRetention, type RetentionOptions } from "./retention-task.js";

const DAY = 86_400_000;
const MINUTE = 60_000;
/** A Thursday afternoon in São Paulo. */
const NOW = Date.UTC(2026, 10, 26, 18, 7, 13);
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };
const OPTIONS: RetentionOptions = { eventDays: 10, removedDays: 5, auditDays: 30, batch: 7, maxBatches: 10_000 };

/** A small deterministic generator: the same data on both dialects. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

for (const dialect of DIALECTS) {
  describe(`retention on ${dialect}`, () => {
    let database: TestDatabase;
    let servers: OperatorServer[];
    let admins: ApiClient[];

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      servers = [];
      admins = [];
      // The same database seen with three SINO_TIME_ZONE: the charts' days must come out the same after the roll-up in each.
      for (const zone of ["America/Sao_Paulo", "Asia/Kathmandu", "UTC"]) {
        const server = await startOperatorServer({ dialect, database, now: () => NOW, env: { SINO_TIME_ZONE: zone } });
        servers.push(server);
        const admin = new ApiClient(server);
        if (admins.length === 0) expect((await admin.post("/api/v1/setup", ADMIN)).status).toBe(201);
        else expect((await admin.post("/api/v1/session", { email: ADMIN.email, password: ADMIN.password })).status).toBe(200);
        admins.push(admin);
      }
    });
    afterEach(async () => {
      for (const server of servers) await server.close();
      await database.cleanup();
    });

    async function seed(): Promise<{ notificationIds: number[] }> {
      const rnd = random(7);
      const db = database.db;
      const site = Number((await db.selectFrom("sites").select("id").where("built_in", "=", 1).executeTakeFirstOrThrow()).id);
      const at = (maxDaysAgo: number) => NOW - Math.floor(rnd() * maxDaysAgo * DAY) - Math.floor(rnd() * 60) * MINUTE;
      const live: number[] = [];
      for (let i = 0; i < 40; i += 1) {
        const created = at(400);
        const row = await db
          .insertInto("subscriptions")
          .values({ endpoint: `https://push.example.com/${dialect}/${i}`, p256dh: "p", auth: `a${i}`, user_agent: null, created_at: created, updated_at: created, last_seen_at: created, site_id: site })
          .returning("id")
          .executeTakeFirstOrThrow();
        live.push(Number(row.id));
      }
      // Removed subscriptions: their ids (beyond the live ones) no longer exist.
      const gone = Array.from({ length: 25 }, (_, i) => 100_000 + i);
      const removals = Array.from({ length: 60 }, () => {
        const created = at(420);
        const removed = created + Math.floor(rnd() * (NOW - created));
        return { removed_at: removed, reason: (["unsubscribed", "gone", "expired", "operator"] as const)[Math.floor(rnd() * 4)]!, subscription_created_at: created, site_id: site };
      });
      await db.insertInto("subscription_removals").values(removals).execute();
      const notificationIds: number[] = [];
      for (let n = 0; n < 12; n += 1) {
        const created = at(60);
        const row = await db
          .insertInto("notifications")
          .values({ title: `Envio ${n}`, body: null, icon: null, image: null, badge: null, tag: `t${n}`, url: null, urgency: null, ttl_seconds: 3600, topic: null, audience: '{"kind":"all"}', payload: "{}", status: "completed", created_at: created, expires_at: created + 3_600_000, finished_at: created + MINUTE, queued: 65, accepted: 60 })
          .returning("id")
          .executeTakeFirstOrThrow();
        const id = Number(row.id);
        notificationIds.push(id);
        const events = [];
        for (const subscription of [...live, ...gone]) {
          if (rnd() < 0.5) continue;
          const when = created + Math.floor(rnd() * (NOW - created));
          events.push({ notification_id: id, subscription_id: subscription, type: "shown" as const, created_at: when });
          if (rnd() < 0.4) events.push({ notification_id: id, subscription_id: subscription, type: "clicked" as const, created_at: when + MINUTE, action: rnd() < 0.3 ? "1" : null });
          if (rnd() < 0.3) events.push({ notification_id: id, subscription_id: subscription, type: "closed" as const, created_at: when + 2 * MINUTE });
        }
        await db.insertInto("notification_events").values(events).execute();
        await db
          .insertInto("notification_recipients")
          .values([...live.slice(0, 5), ...gone.slice(0, 5)].map((subscription) => ({ notification_id: id, subscription_id: subscription, person_id: null, site_id: site, outcome: "accepted" as const, reason: null, updated_at: created })))
          .execute();
      }
      await db
        .insertInto("audit_log")
        .values([40, 31, 29, 1].map((days) => ({ at: NOW - days * DAY, actor_kind: "user" as const, actor_id: 1, actor_name: "Ana", action: "notification.send", target_id: "1", status: 201, ip: "127.0.0.1", user_agent: null, request_id: null })))
        .execute();
      return { notificationIds };
    }

    async function charts(): Promise<unknown[]> {
      const site = Number((await database.db.selectFrom("sites").select("id").where("built_in", "=", 1).executeTakeFirstOrThrow()).id);
      const answers = [];
      for (const admin of admins) {
        for (const query of ["?days=366", "?days=30", "?days=7", `?days=366&site=${site}`]) {
          const res = await admin.get(`/api/v1/stats${query}`);
          expect(res.status).toBe(200);
          answers.push(res.body);
        }
      }
      return answers;
    }

    const count = async (table: "notification_events" | "subscription_removals" | "notification_recipients" | "audit_log") =>
      Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow()).n);

    it("rolls old events and removed subscriptions' rows into counts: the charts' totals and each send's counts stay equal", async () => {
      const { notificationIds } = await seed();
      const before = await charts();
      const countsBefore = await createNotificationEventsRepository(database).countsForMany(notificationIds);
      const rows = { events: await count("notification_events"), removals: await count("subscription_removals"), recipients: await count("notification_recipients") };
      const oldOrphanRecipients = await database.db
        .selectFrom("notification_recipients")
        .select("notification_id")
        .where("subscription_id", ">=", 100_000)
        .where("updated_at", "<", NOW - 5 * DAY)
        .execute();
      expect(oldOrphanRecipients.length).toBeGreaterThan(0);
      // Not a trivial case: the charts count clicks and removals the roll-up takes.
      const clicks = (before[0] as { sends: { clicked: number }[] }).sends.reduce((sum, d) => sum + d.clicked, 0);
      expect(clicks).toBeGreaterThan(50);

      // Two processes at once, in batches of 7: nothing is counted twice.
      const retention = () => createRetention({ repository: createRetentionRepository(database), clock: () => NOW, logger: SILENT, options: OPTIONS });
      // A pass is bounded: at most maxBatches transactions of `batch` rows per kind of row.
      const bounded = await createRetention({ repository: createRetentionRepository(database), clock: () => NOW, logger: SILENT, options: { ...OPTIONS, maxBatches: 2 } }).perform();
      expect(bounded.events).toBe(2 * 7 * 2); // old events, then removed subscriptions' events
      expect(bounded.removals).toBe(2 * 7);
      expect(await charts()).toEqual(before);
      const [a0, b0] = await Promise.all([retention().perform(), retention().perform()]);
      // With PostgreSQL, a process that found its rows taken stops for this pass: the next takes the rest.
      const c0 = await retention().perform();
      const [a, b] = [
        { events: bounded.events + a0.events + c0.events, recipients: bounded.recipients + a0.recipients + c0.recipients, removals: bounded.removals + a0.removals + c0.removals, audit: bounded.audit + a0.audit + c0.audit },
        b0,
      ];
      const done = { events: a.events + b.events, recipients: a.recipients + b.recipients, removals: a.removals + b.removals, audit: a.audit + b.audit };
      expect(done.events).toBeGreaterThan(100);
      expect(done.removals).toBeGreaterThan(30);
      expect(done.recipients).toBe(oldOrphanRecipients.length);
      expect(done.audit).toBe(2);
      expect(await count("notification_events")).toBe(rows.events - done.events);
      expect(await count("subscription_removals")).toBe(rows.removals - done.removals);
      expect(await count("notification_recipients")).toBe(rows.recipients - done.recipients);

      // What is left is only what retention keeps.
      const db = database.db;
      expect(await db.selectFrom("notification_events").select("created_at").where("created_at", "<", NOW - 10 * DAY).execute()).toEqual([]);
      const orphans = await db
        .selectFrom("notification_events as e")
        .select("e.subscription_id")
        .where("e.created_at", "<", NOW - 5 * DAY)
        .where((w) => w.not(w.exists(w.selectFrom("subscriptions").select("subscriptions.id").whereRef("subscriptions.id", "=", "e.subscription_id"))))
        .execute();
      expect(orphans).toEqual([]);
      expect(await db.selectFrom("subscription_removals").select("id").where("removed_at", "<", NOW - 5 * DAY).execute()).toEqual([]);
      expect((await db.selectFrom("audit_log").select("at").where("actor_name", "=", "Ana").execute()).map((r) => NOW - Number(r.at)).sort((x, y) => x - y)).toEqual([1 * DAY, 29 * DAY]);

      expect(await charts()).toEqual(before);
      expect(await createNotificationEventsRepository(database).countsForMany(notificationIds)).toEqual(countsBefore);

      // A second pass has nothing left to do and changes nothing.
      expect(await retention().perform()).toEqual({ events: 0, recipients: 0, removals: 0, audit: 0, consents: 0 });
      expect(await charts()).toEqual(before);
    });

    it("runs on the hygiene task's look, even with subscription expiry off", async () => {
      await seed();
      const hygiene = createHygieneTask({
        repository: createHygieneRepository(database),
        sender: { send: () => Promise.reject(new Error("no push in this test")) },
        clock: () => NOW,
        logger: SILENT,
        options: { expiryDays: 0, warningDays: 0 },
        retention: createRetention({ repository: createRetentionRepository(database), clock: () => NOW, logger: SILENT, options: { ...OPTIONS, maxBatches: 10_000 } }),
      });
      expect(await hygiene.perform()).toEqual({ warned: 0, removed: 0, targets: 0 });
      expect(await database.db.selectFrom("notification_events").select("created_at").where("created_at", "<", NOW - 10 * DAY).execute()).toEqual([]);
      expect(await database.db.selectFrom("audit_log").select("at").where("at", "<", NOW - 30 * DAY).execute()).toEqual([]);
    });

    it("keeps everything when the periods are 0", async () => {
      await seed();
      const rows = [await count("notification_events"), await count("subscription_removals"), await count("notification_recipients"), await count("audit_log")];
      const result = await createRetention({ repository: createRetentionRepository(database), clock: () => NOW, logger: SILENT, options: { eventDays: 0, removedDays: 0, auditDays: 0 } }).perform();
      expect(result).toEqual({ events: 0, recipients: 0, removals: 0, audit: 0, consents: 0 });
      expect([await count("notification_events"), await count("subscription_removals"), await count("notification_recipients"), await count("audit_log")]).toEqual(rows);
    });

    it("deletes consent records whose retention after their subscription ended is over, and only those", async () => {
      const record = (subscriptionId: number, endedAt: number | null) => ({
        subscription_id: subscriptionId,
        site_id: null,
        page_origin: "https://site.example",
        source: "bell" as const,
        text: "Habilitar Notificações",
        catalogue_version: "pt-BR-test",
        channels: "[]",
        given_at: NOW - 400 * DAY,
        ended_at: endedAt,
        end_reason: endedAt === null ? null : "unsubscribed",
      });
      await database.db.insertInto("consent_records").values([record(900_001, NOW - 31 * DAY), record(900_002, NOW - 29 * DAY)]).execute();
      const options = { eventDays: 0, removedDays: 0, auditDays: 0, consentDays: 30 };
      const result = await createRetention({ repository: createRetentionRepository(database), clock: () => NOW, logger: SILENT, options }).perform();
      expect(result.consents).toBe(1);
      const left = await database.db.selectFrom("consent_records").select("subscription_id").where("subscription_id", ">=", 900_001).execute();
      expect(left.map((r) => Number(r.subscription_id))).toEqual([900_002]);
    });
  });
}
