import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabaseLocation } from "../../test/support/db.js";
import { useTestDatabaseLocation } from "../../test/support/test-database.js";
import { migrateToLatest } from "./migrate.js";
import { MIGRATIONS } from "./migrations/index.js";

const execFileAsync = promisify(execFile);

for (const dialect of DIALECTS) {
  describe(`migrations on ${dialect}`, () => {
    let location: TestDatabaseLocation;
    useTestDatabaseLocation(dialect, (created) => (location = created));

    it("applies every migration once, then nothing", async () => {
      const database = openTestDatabase(location);
      try {
        expect(await migrateToLatest(database)).toEqual(MIGRATIONS.map(([name]) => name));
        expect(await migrateToLatest(database)).toEqual([]);
        const tables = (await database.db.introspection.getTables())
          .filter((t) => t.schema === database.schema)
          .map((t) => t.name)
          .sort();
        expect(tables).toEqual([
          "api_tokens", "audit_log", "channels", "consent_changes", "consent_records", "data_erasures", "delivery_jobs", "delivery_retries",
          "engagement_daily", "feed_items", "feeds", "idempotency_keys", "login_attempts", "notification_channels", "notification_event_days",
          "notification_events", "notification_people", "notification_recipients", "notification_retry_causes", "notification_sites",
          "notification_targets", "notifications", "organisation", "person_tags", "segment_sizes", "segments", "sessions", "settings", "sites",
          "subscription_channels", "subscription_removal_buckets", "subscription_removals", "subscription_tags", "subscriptions", "templates",
          "users", "vapid_keys", "webhook_messages", "webhooks",
        ]);
      } finally {
        await database.destroy();
      }
    });

    it("lets several processes migrate the same database at once", async () => {
      const args = [location.url, ...(location.schema === undefined ? [] : [location.schema])];
      const outputs = await Promise.all(
        Array.from({ length: 3 }, () =>
          execFileAsync(process.execPath, ["--import", "tsx", "test/support/run-migrate.ts", ...args]),
        ),
      );
      const applied = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as string[]);
      expect(applied).toEqual(MIGRATIONS.map(([name]) => name));
    });
  });
}
