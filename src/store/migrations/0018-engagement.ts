import type { SinoMigration } from "./migration.js";

/**
 * The Painel's active / sleeping split over time (issue 18): one row per (UTC day, site), recorded
 * once a day by the worker's periodic task (segment sizes). A subscription is sleeping when it has
 * had no click and no visit for SINO_SLEEPING_DAYS; the counts are those of the day they were
 * taken, so a later change of that option does not rewrite the past.
 */
export const engagement: SinoMigration = {
  async up(db) {
    await db.schema
      .createTable("engagement_daily")
      // `YYYY-MM-DD`, UTC (as segment_sizes).
      .addColumn("day", "text", (col) => col.notNull())
      // No foreign key: a deleted site's history stays in the totals of its days.
      .addColumn("site_id", "bigint", (col) => col.notNull())
      .addColumn("active", "integer", (col) => col.notNull())
      .addColumn("sleeping", "integer", (col) => col.notNull())
      .addColumn("recorded_at", "bigint", (col) => col.notNull())
      .addPrimaryKeyConstraint("engagement_daily_pk", ["day", "site_id"])
      .execute();
  },

  async down(db) {
    await db.schema.dropTable("engagement_daily").execute();
  },
};
