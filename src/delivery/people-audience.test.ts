import { describe, expect, it } from "vitest";
import { DIALECTS } from "../../test/support/db.js";
import { useSmallBatchEngine } from "../../test/support/delivery-engine.js";
import { seedFourPeople, waitForNotification } from "../../test/support/delivery.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import { createChannelsRepository } from "../store/channels-repository.js";
import { createNotificationsRepository } from "../store/notifications-repository.js";

const fake = useFakePushService();

for (const dialect of DIALECTS) {
  describe(`sends to people on ${dialect} (the engine: small batches and jobs, no encryption threads)`, () => {
    const run = useSmallBatchEngine(dialect, fake);

    /**
     * `seedFourPeople`'s 30 subscriptions and people p0–p3. Channel `c` holds s0–s9 only: a send
     * to people ignores it.
     */
    async function seed() {
      const { fakeIds, ids } = await seedFourPeople(run.database, fake());
      const channel = await createChannelsRepository(run.database).create({ slug: "c", name: "C", description: null, isDefault: false }, Date.now());
      if (channel === "slug_taken") throw new Error("unexpected");
      await run.database.db
        .insertInto("subscription_channels")
        .values(ids.slice(0, 10).map((id) => ({ subscription_id: id, channel_id: channel.id })))
        .execute();
      return { fakeIds };
    }

    it("walks the people's subscriptions across jobs and sub-batches, each getting its own person's copy", async () => {
      const { fakeIds } = await seed();
      const people = ["p0", "p1", "p9"].map((id) => ({ id, data: { nome: id.toUpperCase() } }));
      const created = await run.engine.createNotification({ title: "Oi, {{nome}}", audience: { kind: "people", people: 3 }, people });
      expect(created).toMatchObject({ personalised: true, counts: { queued: 6 } });
      const done = await waitForNotification(() => run.engine.getNotification(created.id));
      expect(done.counts).toMatchObject({ queued: 6, accepted: 6, failed: 0 });
      const expected = new Map([
        ...[0, 12, 24].map((i) => [fakeIds[i]!, "Oi, P0"] as const),
        ...[3, 15, 27].map((i) => [fakeIds[i]!, "Oi, P1"] as const),
      ]);
      const received = new Map(fake().stats().log.map((entry) => [entry.id, (JSON.parse(entry.plaintext ?? "{}") as { title?: string }).title]));
      expect(received).toEqual(expected);
      expect(fake().stats().duplicateAcceptances).toBe(0);
    });

    it("takes a scheduled people send's targets when it goes out, from its stored people", async () => {
      await seed();
      const repository = createNotificationsRepository(run.database);
      const at = Date.now() + 3_600_000;
      const scheduled = await run.engine.createNotification({ title: "Mais tarde", audience: { kind: "people", people: 2 }, people: [{ id: "p2", data: null }, { id: "p3", data: null }], sendAt: at });
      expect(scheduled).toMatchObject({ status: "scheduled", counts: { queued: 0 } });
      expect(await repository.countTargets({ kind: "people", people: 2 }, ["p2", "p3"])).toBe(4);
      const [started] = await repository.startDue(at, { jobSize: 10, limit: 5 });
      expect(started).toMatchObject({ id: scheduled.id, status: "queued", counts: { queued: 4 } });
      expect(await repository.peopleWithoutSubscriptions(["p3", "nobody", "p2"], [])).toEqual(["nobody"]);
    });
  });
}
