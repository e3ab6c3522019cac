import { describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { generateVapidKeys, parseVapidKeys } from "../push/vapid-keys.js";
import { createSettingsRepository } from "./settings-repository.js";
import { ensureVapidKeys } from "./vapid-keys-store.js";

for (const dialect of DIALECTS) {
  describe(`VAPID keys in the settings table on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));

    it("generates a valid pair once and returns the same pair afterwards", async () => {
      const settings = createSettingsRepository(database);
      let generated = 0;
      const generate = () => {
        generated++;
        return generateVapidKeys();
      };
      const first = await ensureVapidKeys(settings, generate);
      const second = await ensureVapidKeys(settings, generate);
      expect(second).toEqual(first);
      expect(generated).toBe(1);
      expect(() => parseVapidKeys(first)).not.toThrow();
    });

    it("uses the override and stores nothing", async () => {
      const settings = createSettingsRepository(database);
      const override = generateVapidKeys();
      expect(await ensureVapidKeys(settings, generateVapidKeys, override)).toEqual(override);
      expect(await settings.get("vapid.keys")).toBeUndefined();
    });

    it("gives every concurrent starter the same pair", async () => {
      // Separate connections, as separate processes would have.
      const others = Array.from({ length: 4 }, () => openTestDatabase(database.location));
      try {
        const pairs = await Promise.all(
          others.map((o) => ensureVapidKeys(createSettingsRepository(o), generateVapidKeys)),
        );
        for (const pair of pairs) expect(pair).toEqual(pairs[0]);
        const stored = await ensureVapidKeys(createSettingsRepository(database), generateVapidKeys);
        expect(stored).toEqual(pairs[0]);
      } finally {
        await Promise.all(others.map((o) => o.destroy()));
      }
    });
  });

  describe(`settings repository on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));

    it("inserts only when absent and overwrites with set", async () => {
      const settings = createSettingsRepository(database);
      expect(await settings.get("k")).toBeUndefined();
      expect(await settings.insertIfAbsent("k", "one")).toBe("one");
      expect(await settings.insertIfAbsent("k", "two")).toBe("one");
      await settings.set("k", "three");
      expect(await settings.get("k")).toBe("three");
    });
  });
}
