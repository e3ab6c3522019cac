import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { useSmallBatchEngine } from "../../test/support/delivery-engine.js";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import { createChannelsRepository } from "../store/channels-repository.js";

const fake = useFakePushService();

for (const dialect of DIALECTS) {
  describe(`channel audiences on ${dialect}`, () => {
    const run = useSmallBatchEngine(dialect, fake);

    /** 40 subscriptions; `a` has s0–s14, `b` has s10–s24 (s10–s14 in both); s25–s39 in none. */
    async function seed() {
      const fakeIds = await seedSubscriptions(run.database, fake(), 40);
      const rows = await run.database.db.selectFrom("subscriptions").select(["id"]).orderBy("id").execute();
      const channels = createChannelsRepository(run.database);
      const a = await channels.create({ slug: "a", name: "A", description: null, isDefault: false }, Date.now());
      const b = await channels.create({ slug: "b", name: "B", description: null, isDefault: false }, Date.now());
      if (a === "slug_taken" || b === "slug_taken") throw new Error("unexpected");
      const member = (channelId: number, from: number, to: number) =>
        rows.slice(from, to).map((r) => ({ subscription_id: Number(r.id), channel_id: channelId }));
      await run.database.db.insertInto("subscription_channels").values([...member(a.id, 0, 15), ...member(b.id, 10, 25)]).execute();
      return { fakeIds, a: a.id, b: b.id };
    }

    it("sends a channel send only to that channel's subscribers, and counts only them as queued", async () => {
      const { fakeIds, a } = await seed();
      const created = await run.engine.createNotification({ title: "Só canal A", audience: { kind: "channels", channels: [a] } });
      expect(created.counts.queued).toBe(15);
      const done = await waitForNotification(() => run.engine.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 15, accepted: 15, failed: 0, removed: 0 });
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual(fakeIds.slice(0, 15).sort());
    });

    it("sends once to a subscriber in two of the channels, and to everyone when the audience is everyone", async () => {
      const { fakeIds, a, b } = await seed();
      const both = await run.engine.createNotification({ title: "A e B", audience: { kind: "channels", channels: [a, b] } });
      expect(both.counts.queued).toBe(25);
      await waitForNotification(() => run.engine.getNotification(both.id));
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual(fakeIds.slice(0, 25).sort());
      expect(fake().stats().duplicateAcceptances).toBe(0);

      fake().reset();
      const everyone = await run.engine.createNotification({ title: "Todos" });
      const done = await waitForNotification(() => run.engine.getNotification(everyone.id));
      expect(done.counts.accepted).toBe(40);
      expect([...fake().stats().acceptedById.keys()].sort()).toEqual([...fakeIds].sort());
    });

    it("puts the send's id in the payload the service worker reads", async () => {
      await seedSubscriptions(run.database, fake(), 1);
      const created = await run.engine.createNotification({ title: "Com id" });
      await waitForNotification(() => run.engine.getNotification(created.id));
      const [entry] = fake().stats().log;
      expect(JSON.parse(entry!.plaintext!)).toMatchObject({ id: String(created.id), title: "Com id" });
    });
  });
}
