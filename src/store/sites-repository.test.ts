import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabaseLocation, openTestDatabase, type TestDatabaseLocation } from "../../test/support/db.js";
import type { Database } from "./database.js";
import { MIGRATIONS } from "./migrations/index.js";
import { BUILT_IN_SITE_ID, createSitesRepository } from "./sites-repository.js";

for (const dialect of DIALECTS) {
  describe(`sites storage on ${dialect}`, () => {
    let location: TestDatabaseLocation;
    let drop: () => Promise<void>;
    let database: Database;
    beforeEach(async () => {
      ({ location, drop } = await createTestDatabaseLocation(dialect));
      database = openTestDatabase(location);
    });
    afterEach(async () => {
      await database.destroy();
      await drop();
    });

    async function migrate(until: string | undefined) {
      for (const [name, migration] of MIGRATIONS) {
        await migration.up(database.db as never, dialect);
        if (name === until) return;
      }
    }

    it("gives the subscriptions made before sites existed to Sino's own built-in site", async () => {
      await migrate("0005-channels");
      const now = Date.now();
      await database.db
        .insertInto("subscriptions")
        .values({ endpoint: "https://fcm.googleapis.com/fcm/send/antes", p256dh: "p", auth: "a", user_agent: null, created_at: now, updated_at: now, last_seen_at: now } as never)
        .execute();
      const sitesMigration = MIGRATIONS.find(([name]) => name === "0006-sites")![1];
      await sitesMigration.up(database.db as never, dialect);

      const row = await database.db.selectFrom("subscriptions").select("site_id").executeTakeFirstOrThrow();
      expect(Number(row.site_id)).toBe(BUILT_IN_SITE_ID);
      const [own] = await createSitesRepository(database).list();
      expect(own).toMatchObject({ id: BUILT_IN_SITE_ID, builtIn: true, origin: null, subscribers: 1 });
      expect(own!.key).toMatch(/^[A-Za-z0-9_-]{12}$/);
    });

    it("creates sites with unique origins and keys, and deletes one with its subscriptions, logging each removal", async () => {
      await migrate(undefined);
      const sites = createSitesRepository(database);
      const a = await sites.create("https://a.exemplo.com.br", 1);
      const b = await sites.create("https://b.exemplo.com.br", 2);
      if (a === "origin_taken" || b === "origin_taken") throw new Error("unexpected");
      expect(a.key).not.toBe(b.key);
      expect(await sites.create("https://a.exemplo.com.br", 3)).toBe("origin_taken");

      const now = Date.now();
      const row = (n: number, siteId: number) => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${n}`, p256dh: "p", auth: "a", user_agent: null, created_at: now, updated_at: now, last_seen_at: now, site_id: siteId });
      await database.db.insertInto("subscriptions").values([row(1, a.id), row(2, a.id), row(3, b.id), row(4, BUILT_IN_SITE_ID)]).execute();
      expect(await sites.countSubscriptions(a.id)).toBe(2);

      expect(await sites.remove(BUILT_IN_SITE_ID, now)).toEqual({ outcome: "built_in" });
      expect(await sites.remove(a.id, now)).toEqual({ outcome: "removed", removedSubscribers: 2 });
      expect(await sites.remove(a.id, now)).toEqual({ outcome: "not_found" });
      const left = await database.db.selectFrom("subscriptions").select("site_id").orderBy("id").execute();
      expect(left.map((r) => Number(r.site_id))).toEqual([b.id, BUILT_IN_SITE_ID]);
      const removals = await database.db.selectFrom("subscription_removals").select(["reason", "site_id"]).execute();
      expect(removals.map((r) => [r.reason, Number(r.site_id)])).toEqual([
        ["operator", a.id],
        ["operator", a.id],
      ]);
      expect((await sites.list()).map((s) => [s.origin, s.subscribers])).toEqual([
        [null, 1],
        ["https://b.exemplo.com.br", 1],
      ]);
    });

    it("generates an identity secret, keeps the replaced one for the grace period only, and switches verification", async () => {
      await migrate(undefined);
      const sites = createSitesRepository(database);
      const site = await sites.create("https://a.exemplo.com.br", 1);
      if (site === "origin_taken") throw new Error("unexpected");
      expect(site.identity).toEqual({ verification: true, hasSecret: false, rotatedAt: null, previousUntil: null });
      expect(await sites.identityKeys(site.id)).toEqual({ verification: true, secret: null, previousSecret: null, previousUntil: null });
      expect(await sites.rotateIdentitySecret(999_999, 10, 5)).toBeUndefined();

      const first = await sites.rotateIdentitySecret(site.id, 100, 50);
      expect(first!.secret).toMatch(/^[0-9a-f]{64}$/);
      expect(first!.site.identity).toEqual({ verification: true, hasSecret: true, rotatedAt: 100, previousUntil: null });
      const second = await sites.rotateIdentitySecret(site.id, 200, 50);
      expect(second!.site.identity).toEqual({ verification: true, hasSecret: true, rotatedAt: 200, previousUntil: 250 });
      expect(await sites.identityKeys(site.id)).toEqual({ verification: true, secret: second!.secret, previousSecret: first!.secret, previousUntil: 250 });
      // Only one previous secret: a third rotation drops the first.
      const third = await sites.rotateIdentitySecret(site.id, 300, 50);
      expect(await sites.identityKeys(site.id)).toMatchObject({ secret: third!.secret, previousSecret: second!.secret, previousUntil: 350 });

      expect((await sites.setIdentityVerification(site.id, false))!.identity.verification).toBe(false);
      expect((await sites.identityKeys(site.id))!.verification).toBe(false);
      expect(await sites.setIdentityVerification(999_999, true)).toBeUndefined();
    });
  });
}
