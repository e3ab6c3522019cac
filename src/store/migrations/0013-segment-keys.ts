import { sql } from "kysely";
import type { SinoMigration } from "./migration.js";

/**
 * PostgreSQL: statistics on each tag key together with its values (CREATE STATISTICS, mcv and
 * dependencies), for person_tags and subscription_tags. SQLite: nothing.
 *
 * A segment's tag condition reads `key = K AND value = V`. Column by column, the planner takes the
 * two as independent and multiplies their frequencies: with 5 tags a person, `cidade = Campinas`
 * (700,000 rows of 5,000,000) was estimated at 139,000 rows, `plano = premium ou idade >= 60` at a
 * fifth of its 732,000. Under those estimates a count over 1,000,000 subscriptions chose nested
 * loops of 530,000–630,000 index probes (about 0.7 s of its 1.7 s); with the pairs' own statistics
 * the estimates are within 5 % and the plan is hash joins throughout (parallel hash joins when the
 * count may use workers, see applyCountSettings). One statistics object per index of migration
 * 0008: (key, value), (key, num_value), (key, time_value).
 *
 * ANALYZE fills them now rather than at autovacuum's next pass; it samples a fixed number of rows
 * (300 × default_statistics_target), so it takes seconds even on millions of tags.
 */
const TABLES = ["person_tags", "subscription_tags"] as const;
const COLUMNS = { value: "value", number: "num_value", time: "time_value" } as const;

export const segmentKeys: SinoMigration = {
  async up(db, dialect) {
    if (dialect !== "postgres") return;
    for (const table of TABLES) {
      for (const [suffix, column] of Object.entries(COLUMNS)) {
        await sql`create statistics ${sql.id(`${table}_key_${suffix}_stats`)} (mcv, dependencies) on key, ${sql.id(column)} from ${sql.table(table)}`.execute(db);
      }
      await sql`analyze ${sql.table(table)}`.execute(db);
    }
  },

  async down(db, dialect) {
    if (dialect !== "postgres") return;
    for (const table of TABLES) {
      for (const suffix of Object.keys(COLUMNS)) await sql`drop statistics if exists ${sql.id(`${table}_key_${suffix}_stats`)}`.execute(db);
    }
  },
};
