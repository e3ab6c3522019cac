import { sql } from "kysely";
import type { SinoMigration } from "./migration.js";

/**
 * The frequency cap counts, per subscription, the marketing pushes accepted in the last 24 hours:
 * a partial index on the accepted recipient rows by (subscription, time) makes that one probe per
 * subscription of a batch (`src/store/engagement-repository.ts`), whatever the size of the table.
 * Partial: only accepted rows are indexed (the cap never reads another outcome), so failed,
 * removed, limited and sleeping rows cost the fan-out nothing more.
 */
export const deliveryGates: SinoMigration = {
  async up(db) {
    await db.schema
      .createIndex("notification_recipients_accepted_recent")
      .on("notification_recipients")
      .columns(["subscription_id", "updated_at"])
      .where(sql.ref("outcome"), "=", sql.lit("accepted"))
      .execute();
  },

  async down(db) {
    await db.schema.dropIndex("notification_recipients_accepted_recent").execute();
  },
};
