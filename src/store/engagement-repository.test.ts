/**
 * Activity tracking and the active / sleeping split on both databases, with a controlled clock:
 * last shown from `shown` reports (one statement per batch), a visit written at most once a day,
 * the reports of pushes that could not be shown, the subscriber's quiet hours with proof, a site's
 * delivery settings, the daily snapshot and the subscribers list's filter.
 */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { aSubscriptionInput as aSubscription } from "../../test/support/subscriptions.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { aNewNotification } from "../../test/support/delivery.js";
import { createRepositories, type Repositories } from "./repositories.js";
import type { RegisterSubscriptionInput } from "./subscriptions-repository.js";
import { DAY_MS } from "./subscription-activity.js";

const T0 = Date.UTC(2026, 10, 2, 12, 0, 0);

for (const dialect of DIALECTS) {
  describe(`engagement storage on ${dialect}`, () => {
    let database: TestDatabase;
    let repos: Repositories;

    const row = (id: number) => database.db.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

    useTestDatabase(dialect, (created) => {
      database = created;
      repos = createRepositories(database);
    });

    async function registered(input: RegisterSubscriptionInput, now: number): Promise<number> {
      const result = await repos.subscriptions.register(input, now);
      if (result.outcome === "auth_mismatch" || result.outcome === "identity_refused") throw new Error(result.outcome);
      return result.subscription.id;
    }

    it("records a visit at registration, and writes a repeated visit at most once a day", async () => {
      const input = aSubscription({ timeZone: "America/Sao_Paulo" });
      const id = await registered(input, T0);
      expect(Number((await row(id)).last_visit_at)).toBe(T0);

      // Same browser, same facts, an hour later: nothing written (last_seen_at stays too).
      await registered(input, T0 + 3_600_000);
      expect(Number((await row(id)).last_visit_at)).toBe(T0);
      expect(Number((await row(id)).last_seen_at)).toBe(T0);

      // A day later: the visit is written.
      await registered(input, T0 + DAY_MS);
      expect(Number((await row(id)).last_visit_at)).toBe(T0 + DAY_MS);
      expect(Number((await row(id)).last_seen_at)).toBe(T0 + DAY_MS);

      // Within the day but with something new to store (another time zone): written at once.
      await registered({ ...input, timeZone: "Europe/Lisbon" }, T0 + DAY_MS + 60_000);
      const after = await row(id);
      expect(after.time_zone).toBe("Europe/Lisbon");
      expect(Number(after.last_visit_at)).toBe(T0 + DAY_MS + 60_000);
    });

    it("sets last_shown_at from shown reports in one batch, counts not_shown, and leaves last_clicked_at to clicks", async () => {
      const a = aSubscription();
      const b = aSubscription();
      const idA = await registered(a, T0);
      const idB = await registered(b, T0);
      const notification = await repos.notifications.createWithJobs(aNewNotification(), { now: T0, jobSize: 1000, payloadFor: () => "{}" });
      const results = await repos.notificationEvents.recordBatch([
        { event: { notificationId: notification.id, type: "shown", endpoint: a.endpoint, auth: a.auth }, now: T0 + 1000 },
        { event: { notificationId: notification.id, type: "not_shown", endpoint: b.endpoint, auth: b.auth }, now: T0 + 1001 },
        { event: { notificationId: notification.id, type: "clicked", endpoint: a.endpoint, auth: a.auth }, now: T0 + 1002 },
        { event: { notificationId: notification.id, type: "not_shown", endpoint: b.endpoint, auth: b.auth }, now: T0 + 1003 },
      ]);
      expect(results).toEqual(["recorded", "recorded", "recorded", "duplicate"]);
      expect(Number((await row(idA)).last_shown_at)).toBe(T0 + 1003);
      expect(Number((await row(idA)).last_clicked_at)).toBe(T0 + 1002);
      expect((await row(idB)).last_shown_at).toBeNull();
      expect((await row(idB)).last_clicked_at).toBeNull();
      const counts = await repos.notificationEvents.countsFor(notification.id);
      expect(counts).toMatchObject({ shown: 1, clicked: 1, closed: 0, notShown: 1 });
      // A push that could not be shown is not a webhook event (none is defined for it).
      const outbox = await database.db.selectFrom("webhook_messages").select("event_type").execute();
      expect(outbox.map((m) => m.event_type)).not.toContain("recipient.not_shown");
    });

    it("reads and sets the subscriber's own quiet hours only with proof of possession", async () => {
      const input = aSubscription();
      const id = await registered(input, T0);
      const proof = { endpoint: input.endpoint, auth: input.auth };
      expect(await repos.engagement.quietHoursWithProof(proof)).toEqual({ outcome: "ok", quietHours: null });
      expect(await repos.engagement.setQuietHoursWithProof({ ...proof, auth: randomBytes(16).toString("base64url") }, "22:00-07:00")).toEqual({ outcome: "auth_mismatch" });
      expect(await repos.engagement.setQuietHoursWithProof({ ...proof, endpoint: `${input.endpoint}x` }, "22:00-07:00")).toEqual({ outcome: "not_found" });
      expect((await row(id)).quiet_hours).toBeNull();
      expect(await repos.engagement.setQuietHoursWithProof(proof, "22:00-07:00")).toEqual({ outcome: "ok", quietHours: "22:00-07:00" });
      expect(await repos.engagement.quietHoursWithProof(proof)).toEqual({ outcome: "ok", quietHours: "22:00-07:00" });
      expect(await repos.engagement.setQuietHoursWithProof(proof, null)).toEqual({ outcome: "ok", quietHours: null });
      expect((await row(id)).quiet_hours).toBeNull();
      // Each accepted change joins the consent record (LGPD); refused ones leave nothing.
      const changes = await database.db.selectFrom("consent_changes").select(["kind", "value"]).where("subscription_id", "=", id).orderBy("id").execute();
      expect(changes).toEqual([
        { kind: "quiet_hours", value: JSON.stringify("22:00-07:00") },
        { kind: "quiet_hours", value: "null" },
      ]);
    });

    it("stores a site's cap, window and zone, only the fields given, and null back to the default", async () => {
      const site = await repos.sites.create("https://loja.example.com", T0);
      if (site === "origin_taken") throw new Error("taken");
      expect(await repos.engagement.setSiteDelivery(site.id, { frequencyCap: 5, sendWindow: "09:00-20:00", timeZone: "America/Manaus" })).toBe(true);
      expect(await repos.sites.findById(site.id)).toMatchObject({ frequencyCap: 5, sendWindow: "09:00-20:00", timeZone: "America/Manaus" });
      expect(await repos.engagement.setSiteDelivery(site.id, { frequencyCap: null })).toBe(true);
      expect(await repos.sites.findById(site.id)).toMatchObject({ frequencyCap: null, sendWindow: "09:00-20:00", timeZone: "America/Manaus" });
      expect(await repos.engagement.setSiteDelivery(999_999, { frequencyCap: 3 })).toBe(false);
    });

    it("splits active and sleeping per site, records the day once, and filters the subscribers list", async () => {
      const site = await repos.sites.create("https://loja.example.com", T0);
      if (site === "origin_taken") throw new Error("taken");
      const now = T0 + 60 * DAY_MS;
      // Built-in site: one visited yesterday (active), one silent since T0 (sleeping), one silent but clicked 10 days ago (active).
      const visited = await registered(aSubscription(), now - DAY_MS);
      const silent = await registered(aSubscription(), T0);
      const clicked = await registered(aSubscription(), T0);
      await database.db.updateTable("subscriptions").set({ last_clicked_at: now - 10 * DAY_MS }).where("id", "=", clicked).execute();
      // The other site: one sleeping (its last visit 31 days ago, created long before).
      const other = await registered(aSubscription({ siteId: site.id }), T0);
      await database.db.updateTable("subscriptions").set({ last_visit_at: now - 31 * DAY_MS }).where("id", "=", other).execute();
      // A subscription from before visits were recorded: created 5 days ago counts as visited then.
      const legacy = await registered(aSubscription({ siteId: site.id }), now - 5 * DAY_MS);
      await database.db.updateTable("subscriptions").set({ last_visit_at: null }).where("id", "=", legacy).execute();

      expect(await repos.engagement.splitBySite(now, 30)).toEqual([
        { siteId: 1, active: 2, sleeping: 1 },
        { siteId: site.id, active: 1, sleeping: 1 },
      ]);
      // A longer sleeping period wakes the 31-day one.
      expect(await repos.engagement.splitBySite(now, 40)).toEqual([
        { siteId: 1, active: 2, sleeping: 1 },
        { siteId: site.id, active: 2, sleeping: 0 },
      ]);

      expect(await repos.engagement.recordDay(now, 30)).toBe(2);
      expect(await repos.engagement.recordDay(now + 1000, 30)).toBe(2); // same day: replaced, not added
      await repos.engagement.recordDay(now + DAY_MS, 30);
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      expect(await repos.engagement.history(day(now - 10 * DAY_MS))).toEqual([
        { day: day(now), active: 3, sleeping: 2 },
        // A day later the one visited yesterday is still active; nothing else changed.
        { day: day(now + DAY_MS), active: 3, sleeping: 2 },
      ]);
      expect(await repos.engagement.history(day(now), site.id)).toEqual([
        { day: day(now), active: 1, sleeping: 1 },
        { day: day(now + DAY_MS), active: 1, sleeping: 1 },
      ]);

      const list = async (kind: "active" | "sleeping") =>
        (await repos.subscribers.list({ activity: { kind, now, sleepingDays: 30 }, offset: 0, limit: 50 })).subscribers.map((s) => s.id).sort((x, y) => x - y);
      expect(await list("sleeping")).toEqual([silent, other].sort((x, y) => x - y));
      expect(await list("active")).toEqual([visited, clicked, legacy].sort((x, y) => x - y));
      expect((await repos.subscribers.list({ activity: { kind: "sleeping", now, sleepingDays: 30 }, siteId: site.id, offset: 0, limit: 50 })).total).toBe(1);
    });
  });
}
