import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { seedSubscriptions } from "../../test/support/delivery.js";
import { useFakePushService } from "../../test/support/fake-push/shared-fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createPushSender } from "../push/sender.js";
import { createPushTransport, type PushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { ptBR } from "../shared/i18n/catalog.js";
import { createHygieneRepository } from "../store/hygiene-repository.js";
import { createHygieneTask, type HygieneTask } from "./hygiene-task.js";

const DAY = 86_400_000;
const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });
const SILENT = { info: () => undefined, warn: () => undefined, error: () => undefined };

const fake = useFakePushService();

for (const dialect of DIALECTS) {
  describe(`subscription hygiene on ${dialect}`, () => {
    let database: TestDatabase;
    let transport: PushTransport;
    let now = 0;

    beforeEach(async () => {
      fake().reset();
      database = await createTestDatabase(dialect);
      transport = createPushTransport({
        policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
        ca: loadTestTls().ca,
        requestTimeoutMs: 10_000,
      });
    });
    afterEach(async () => {
      await transport.close();
      await database.cleanup();
    });

    /** A worker process's task: its own repository and sender on the shared database, the test's clock. */
    function task(): HygieneTask {
      return createHygieneTask({
        repository: createHygieneRepository(database),
        sender: createPushSender({ vapid, transport }),
        clock: () => now,
        logger: SILENT,
        options: { expiryDays: 60, warningDays: 7, batch: 3 },
      });
    }

    it("sends exactly one pt-BR warning (even with two workers), then removes the subscription at the expiry, logged as expired", async () => {
      const fakeIds = await seedSubscriptions(database, fake(), 8);
      const seen = Number((await database.db.selectFrom("subscriptions").select("last_seen_at").executeTakeFirstOrThrow()).last_seen_at);
      // s7 came back recently: it must be left alone throughout.
      await database.db.updateTable("subscriptions").set({ last_seen_at: seen + 30 * DAY }).where("endpoint", "=", fake().endpointFor("s7")).execute();

      now = seen + 52 * DAY;
      expect(await task().perform()).toEqual({ warned: 0, removed: 0, targets: 0 });

      now = seen + 54 * DAY;
      const [first, second] = await Promise.all([task().perform(), task().perform()]);
      expect(first.warned + second.warned).toBe(7);
      expect(fake().stats().acceptedById.size).toBe(7);
      expect(fake().stats().duplicateAcceptances).toBe(0);
      expect(fake().stats().acceptedById.has("s7")).toBe(false);
      const payload = JSON.parse(fake().stats().log[0]!.plaintext!) as Record<string, string>;
      expect(payload).toMatchObject({ title: ptBR.hygiene.warningTitle, body: ptBR.hygiene.warningBody });

      // A later pass before the expiry warns nobody again.
      now = seen + 58 * DAY;
      expect(await task().perform()).toEqual({ warned: 0, removed: 0, targets: 0 });
      expect(fake().stats().requests).toBe(7);

      now = seen + 60 * DAY;
      const [r1, r2] = await Promise.all([task().perform(), task().perform()]);
      expect(r1.removed + r2.removed).toBe(7);
      const left = await database.db.selectFrom("subscriptions").select("endpoint").execute();
      expect(left.map((r) => r.endpoint)).toEqual([fake().endpointFor("s7")]);
      const removals = await database.db.selectFrom("subscription_removals").selectAll().execute();
      expect(removals).toHaveLength(7);
      expect(new Set(removals.map((r) => r.reason))).toEqual(new Set(["expired"]));
      expect(fakeIds).toHaveLength(8);
    });

    it("warns again only after the browser came back and went quiet again", async () => {
      await seedSubscriptions(database, fake(), 1);
      const seen = Number((await database.db.selectFrom("subscriptions").select("last_seen_at").executeTakeFirstOrThrow()).last_seen_at);
      now = seen + 54 * DAY;
      expect((await task().perform()).warned).toBe(1);
      // The page re-registered (last_seen_at refreshed), then nothing for 54 days more.
      await database.db.updateTable("subscriptions").set({ last_seen_at: now + DAY }).execute();
      now = now + 55 * DAY;
      expect((await task().perform()).warned).toBe(1);
      expect(fake().stats().requests).toBe(2);
    });
  });
}
