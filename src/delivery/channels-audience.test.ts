import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { seedSubscriptions, waitForSend } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createChannelsRepository } from "../store/channels-repository.js";
import { createDeliveryEngine, type DeliveryEngine } from "./engine.js";
import { createRepositories } from "../store/repositories.js";

const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

for (const dialect of DIALECTS) {
  describe(`channel audiences on ${dialect}`, () => {
    let database: TestDatabase;
    let transport: PushTransport;
    let engine: DeliveryEngine;

    beforeEach(async () => {
      fake.reset();
      database = await createTestDatabase(dialect);
      transport = createPushTransport({
        policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
        ca: loadTestTls().ca,
        requestTimeoutMs: 10_000,
      });
      // Small jobs and batches: the filter must hold across many ranges and sub-batches.
      engine = createDeliveryEngine({ repositories: createRepositories(database), transport, vapid, options: { lanes: 2, batchSize: 7, jobSize: 10, pollMs: 20, encryptionThreads: 0 } });
      engine.start();
    });
    afterEach(async () => {
      await engine.stop({ graceful: true });
      await transport.close();
      await database.cleanup();
    });

    /** 40 subscriptions; `a` has s0–s14, `b` has s10–s24 (s10–s14 in both); s25–s39 in none. */
    async function seed() {
      const fakeIds = await seedSubscriptions(database, fake, 40);
      const rows = await database.db.selectFrom("subscriptions").select(["id"]).orderBy("id").execute();
      const channels = createChannelsRepository(database);
      const a = await channels.create({ slug: "a", name: "A", description: null, isDefault: false }, Date.now());
      const b = await channels.create({ slug: "b", name: "B", description: null, isDefault: false }, Date.now());
      if (a === "slug_taken" || b === "slug_taken") throw new Error("unexpected");
      const member = (channelId: number, from: number, to: number) =>
        rows.slice(from, to).map((r) => ({ subscription_id: Number(r.id), channel_id: channelId }));
      await database.db.insertInto("subscription_channels").values([...member(a.id, 0, 15), ...member(b.id, 10, 25)]).execute();
      return { fakeIds, a: a.id, b: b.id };
    }

    it("sends a channel send only to that channel's subscribers, and counts only them as queued", async () => {
      const { fakeIds, a } = await seed();
      const created = await engine.createSend({ title: "Só canal A", audience: { kind: "channels", channels: [a] } });
      expect(created.counts.queued).toBe(15);
      const done = await waitForSend(() => engine.getSend(created.id));
      expect(done.counts).toMatchObject({ queued: 15, accepted: 15, failed: 0, removed: 0 });
      expect([...fake.stats().acceptedById.keys()].sort()).toEqual(fakeIds.slice(0, 15).sort());
    });

    it("sends once to a subscriber in two of the channels, and to everyone when the audience is everyone", async () => {
      const { fakeIds, a, b } = await seed();
      const both = await engine.createSend({ title: "A e B", audience: { kind: "channels", channels: [a, b] } });
      expect(both.counts.queued).toBe(25);
      await waitForSend(() => engine.getSend(both.id));
      expect([...fake.stats().acceptedById.keys()].sort()).toEqual(fakeIds.slice(0, 25).sort());
      expect(fake.stats().duplicateAcceptances).toBe(0);

      fake.reset();
      const everyone = await engine.createSend({ title: "Todos" });
      const done = await waitForSend(() => engine.getSend(everyone.id));
      expect(done.counts.accepted).toBe(40);
      expect([...fake.stats().acceptedById.keys()].sort()).toEqual([...fakeIds].sort());
    });

    it("puts the send's id in the payload the service worker reads", async () => {
      await seedSubscriptions(database, fake, 1);
      const created = await engine.createSend({ title: "Com id" });
      await waitForSend(() => engine.getSend(created.id));
      const [entry] = fake.stats().log;
      expect(JSON.parse(entry!.plaintext!)).toMatchObject({ id: String(created.id), title: "Com id" });
    });
  });
}
