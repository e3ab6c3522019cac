import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { useSmallBatchEngine } from "../../test/support/delivery-engine.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import { createChannelsRepository } from "../store/channels-repository.js";
import { createNotificationsRepository } from "../store/notifications-repository.js";
import { BUILT_IN_SITE_ID, createSitesRepository } from "../store/sites-repository.js";

const fake = useFakePushService();

for (const dialect of DIALECTS) {
  describe(`audiences narrowed to sites on ${dialect}`, () => {
    const run = useSmallBatchEngine(dialect, fake);

    /** 40 subscriptions: s0–s14 on site A, s15–s24 on site B, s25–s39 on Sino's own; channel `c` has s10–s29. */
    async function seed() {
      const fakeIds = await seedSubscriptions(run.database, fake(), 40);
      const rows = await run.database.db.selectFrom("subscriptions").select(["id"]).orderBy("id").execute();
      const sites = createSitesRepository(run.database);
      const a = await sites.create("https://a.exemplo.com.br", Date.now());
      const b = await sites.create("https://b.exemplo.com.br", Date.now());
      if (a === "origin_taken" || b === "origin_taken") throw new Error("unexpected");
      const ids = (from: number, to: number) => rows.slice(from, to).map((r) => Number(r.id));
      await run.database.db.updateTable("subscriptions").set({ site_id: a.id }).where("id", "in", ids(0, 15)).execute();
      await run.database.db.updateTable("subscriptions").set({ site_id: b.id }).where("id", "in", ids(15, 25)).execute();
      const channel = await createChannelsRepository(run.database).create({ slug: "c", name: "C", description: null, isDefault: false }, Date.now());
      if (channel === "slug_taken") throw new Error("unexpected");
      await run.database.db
        .insertInto("subscription_channels")
        .values(ids(10, 30).map((subscription_id) => ({ subscription_id, channel_id: channel.id })))
        .execute();
      return { fakeIds, a: a.id, b: b.id, c: channel.id };
    }

    it("sends a send narrowed to one site only to the subscribers made on it, and counts only them", async () => {
      const { fakeIds, a } = await seed();
      const created = await run.engine.createNotification({ title: "Só o site A", audience: { kind: "everyone", sites: [a] } });
      expect(created.counts.queued).toBe(15);
      const done = await waitForNotification(() => run.engine.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 15, accepted: 15, failed: 0 });
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual(fakeIds.slice(0, 15).sort());
    });

    it("narrows a channel send to the sites chosen (Sino's own included), once each", async () => {
      const { fakeIds, b, c } = await seed();
      const created = await run.engine.createNotification({ title: "Canal C em B e no Sino", audience: { kind: "channels", channels: [c], sites: [b, BUILT_IN_SITE_ID] } });
      // Channel c is s10–s29; of those, s15–s24 are on B and s25–s29 on Sino's own.
      expect(created.counts.queued).toBe(15);
      await waitForNotification(() => run.engine.getNotification(created.id));
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual(fakeIds.slice(15, 30).sort());
      expect(fake().stats().duplicateAcceptances).toBe(0);
    });

    it("reaches nobody when the only site it was narrowed to is deleted before it goes out", async () => {
      const { a } = await seed();
      const sites = createSitesRepository(run.database);
      const scheduledAt = Date.now() + 3_600_000;
      const scheduled = await run.engine.createNotification({ title: "Mais tarde", audience: { kind: "everyone", sites: [a] }, sendAt: scheduledAt });
      expect(scheduled.status).toBe("scheduled");
      expect(await sites.remove(a, Date.now())).toEqual({ outcome: "removed", removedSubscribers: 15 });
      const [started] = await createNotificationsRepository(run.database).startDue(scheduledAt, { jobSize: 10, limit: 5 });
      expect(started).toMatchObject({ id: scheduled.id, status: "no_recipients", counts: { queued: 0 } });
    });
  });
}

