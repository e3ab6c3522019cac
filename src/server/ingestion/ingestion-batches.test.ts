/**
 * The group-committed write paths on both databases: a batch of reports or registrations written
 * in one transaction answers each item as it would have been answered alone, and (through the
 * group commit) requests that arrive while a transaction runs share the next one, each answered
 * only once its row is visible to another connection (committed).
 */
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, openTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { aNewNotification } from "../../../test/support/delivery.js";
import { createGroupCommit } from "./group-commit.js";
import type { Database } from "../../store/database.js";
import { createNotificationEventsRepository, type NotificationEventsRepository, type TimedNotificationEvent } from "../../store/notification-events-repository.js";
import { createChannelsRepository } from "../../store/channels-repository.js";
import { createNotificationsRepository } from "../../store/notifications-repository.js";
import { createSubscriptionChannelsRepository } from "../../store/subscription-channels-repository.js";
import { createSubscriptionsRepository, type RegisterSubscriptionInput, type SubscriptionsRepository } from "../../store/subscriptions-repository.js";

const NOW = 1_700_000_000_000;

function aSubscription(): RegisterSubscriptionInput {
  return {
    endpoint: `https://fcm.googleapis.com/fcm/send/${randomBytes(8).toString("hex")}`,
    p256dh: randomBytes(65).toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
    userAgent: null,
  };
}

for (const dialect of DIALECTS) {
  describe(`ingestion batches on ${dialect}`, () => {
    let database: TestDatabase;
    let other: Database;
    let events: NotificationEventsRepository;
    let subscriptions: SubscriptionsRepository;
    let notificationId: number;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      // A second connection: it sees only what committed.
      other = openTestDatabase(database.location);
      events = createNotificationEventsRepository(database);
      subscriptions = createSubscriptionsRepository(database);
      const notification = await createNotificationsRepository(database).createWithJobs(aNewNotification(), { now: NOW, jobSize: 1000, payloadFor: () => "{}" });
      notificationId = notification.id;
    });
    afterEach(async () => {
      await other.destroy();
      await database.cleanup();
    });

    async function registered(): Promise<RegisterSubscriptionInput & { id: number }> {
      const input = aSubscription();
      const result = await subscriptions.register(input, NOW);
      if (result.outcome !== "created") throw new Error(result.outcome);
      return { ...input, id: result.subscription.id };
    }

    const storedEvents = async () =>
      (await other.db.selectFrom("notification_events").select(["subscription_id", "type"]).orderBy("subscription_id").orderBy("type").execute()).map((r) => `${r.subscription_id}:${r.type}`);

    it("answers each report of one batch as it would be answered alone", async () => {
      const a = await registered();
      const b = await registered();
      const report = (s: { endpoint: string; auth: string }, type: "shown" | "clicked" | "closed", id = notificationId): TimedNotificationEvent => ({
        event: { notificationId: id, type, endpoint: s.endpoint, auth: s.auth },
        now: NOW + 5,
      });
      await events.record(report(a, "shown").event, NOW);
      const results = await events.recordBatch([
        report(a, "shown"), // recorded before this batch
        report(a, "clicked"),
        report(a, "clicked"), // the same report twice in one batch: one row
        report(b, "closed"),
        report({ endpoint: `${a.endpoint}x`, auth: a.auth }, "shown"),
        report({ endpoint: b.endpoint, auth: a.auth }, "shown"),
        report(b, "shown", notificationId + 1000),
      ]);
      expect(results).toEqual(["duplicate", "recorded", "duplicate", "recorded", "subscription_not_found", "auth_mismatch", "notification_not_found"]);
      expect(await storedEvents()).toEqual([`${a.id}:clicked`, `${a.id}:shown`, `${b.id}:closed`]);
      const clicked = await other.db.selectFrom("subscriptions").select(["id", "last_clicked_at"]).orderBy("id").execute();
      expect(clicked.map((s) => (s.last_clicked_at === null ? null : Number(s.last_clicked_at)))).toEqual([NOW + 5, null]);
    });

    it("writes reports arriving during a transaction in one next transaction, each answered after its commit", async () => {
      const subs = await Promise.all(Array.from({ length: 12 }, () => registered()));
      let gate: (() => void) | undefined;
      const held = new Promise<void>((resolve) => (gate = resolve));
      const writes: number[] = [];
      const commit = createGroupCommit({
        write: async (items: readonly TimedNotificationEvent[]) => {
          writes.push(items.length);
          // The first transaction waits for the test, so the others gather behind it.
          if (writes.length === 1) await held;
          return events.recordBatch(items);
        },
        maxBatch: 100,
        capacity: 100,
      });
      const submit = (s: { endpoint: string; auth: string }) => commit.submit({ event: { notificationId, type: "shown", endpoint: s.endpoint, auth: s.auth }, now: NOW });
      const first = submit(subs[0]!);
      while (writes.length === 0) await new Promise((resolve) => setImmediate(resolve));
      // Each answer checks, the moment it comes, that its row is visible to another connection.
      const answers = subs.slice(1).map((s) =>
        submit(s).then(async (result) => {
          const row = await other.db.selectFrom("notification_events").select("type").where("subscription_id", "=", s.id).executeTakeFirst();
          return { result, committed: row !== undefined };
        }),
      );
      gate!();
      expect(await first).toBe("recorded");
      expect(await Promise.all(answers)).toEqual(subs.slice(1).map(() => ({ result: "recorded", committed: true })));
      expect(writes).toEqual([1, 11]);
      expect(commit.stats()).toMatchObject({ batches: 2, items: 12 });
      expect((await storedEvents()).length).toBe(12);
    });

    it("registers a batch in one transaction, each answered as alone", async () => {
      const a = aSubscription();
      const known = await registered();
      const results = await subscriptions.registerBatch([
        { input: a, now: NOW },
        { input: { ...a, userAgent: "again" }, now: NOW + 1 },
        { input: { ...aSubscription(), endpoint: known.endpoint }, now: NOW },
      ]);
      expect(results.map((r) => r.outcome)).toEqual(["created", "existing", "auth_mismatch"]);
      const rows = await other.db.selectFrom("subscriptions").select(["endpoint", "user_agent"]).where("endpoint", "=", a.endpoint).execute();
      expect(rows).toEqual([{ endpoint: a.endpoint, user_agent: "again" }]);
    });

    it("fails only the refused registration of a batch; the others are stored", async () => {
      const commit = createGroupCommit({ write: (items: Parameters<typeof subscriptions.registerBatch<"refused">>[0]) => subscriptions.registerBatch<"refused">(items), maxBatch: 100, capacity: 100 });
      const good = [aSubscription(), aSubscription()];
      const refused = { ...aSubscription(), person: { personId: "p1", check: () => "refused" as const } };
      const results = await Promise.all([commit.submit({ input: good[0]!, now: NOW }), commit.submit({ input: refused, now: NOW }), commit.submit({ input: good[1]!, now: NOW })]);
      expect(results.map((r) => r.outcome)).toEqual(["created", "identity_refused", "created"]);
      const stored = await other.db.selectFrom("subscriptions").select("endpoint").execute();
      expect(stored.map((s) => s.endpoint).sort()).toEqual(good.map((s) => s.endpoint).sort());
    });

    it("writes a batch of channel choices in one transaction, each answered as alone", async () => {
      const channels = createChannelsRepository(database);
      await channels.create({ slug: "ofertas", name: "Ofertas", description: null, isDefault: false }, NOW);
      await channels.create({ slug: "novidades", name: "Novidades", description: null, isDefault: false }, NOW);
      const a = await registered();
      const b = await registered();
      const results = await createSubscriptionChannelsRepository(database).replaceBatch([
        { proof: a, slugs: ["ofertas", "novidades"], max: 20 },
        { proof: b, slugs: ["nao-existe"], max: 20 },
        { proof: { endpoint: b.endpoint, auth: a.auth }, slugs: [], max: 20 },
        { proof: b, slugs: ["ofertas", "novidades"], max: 1 },
        { proof: b, slugs: ["ofertas"], max: 20 },
      ]);
      expect(results).toEqual([
        { outcome: "replaced", channels: ["novidades", "ofertas"] },
        { outcome: "channel_not_found" },
        { outcome: "auth_mismatch" },
        { outcome: "too_many_channels" },
        { outcome: "replaced", channels: ["ofertas"] },
      ]);
      const stored = await other.db.selectFrom("subscription_channels").select(["subscription_id"]).execute();
      expect(stored.map((r) => Number(r.subscription_id)).sort((x, y) => x - y)).toEqual([a.id, a.id, b.id]);
    });

    it("removes a batch of subscriptions with proof, each answered as alone", async () => {
      const a = await registered();
      const b = await registered();
      const results = await subscriptions.removeBatch([
        { endpoint: a.endpoint, auth: a.auth, now: NOW },
        { endpoint: a.endpoint, auth: a.auth, now: NOW },
        { endpoint: b.endpoint, auth: a.auth, now: NOW },
      ]);
      expect(results).toEqual(["removed", "not_found", "auth_mismatch"]);
      const left = await other.db.selectFrom("subscriptions").select("id").execute();
      expect(left.map((s) => Number(s.id))).toEqual([b.id]);
      const log = await other.db.selectFrom("subscription_removals").select("reason").execute();
      expect(log).toEqual([{ reason: "unsubscribed" }]);
    });
  });
}
