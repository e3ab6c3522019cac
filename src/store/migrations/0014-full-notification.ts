import type { SinoMigration } from "./migration.js";

/**
 * The full notification (issue 19) and Declarative Web Push.
 *
 * - `notifications` and `templates`: action buttons (`actions`, JSON `[{ label, url }]`),
 *   `renotify`, `require_interaction`, `silent` (0/1, as `personalised`), `app_badge` and `data`
 *   (the site's JSON, as text). `badge` already exists on notifications; templates gain it.
 * - `notifications.declarative_payload`: the Push API declarative form of the push, beside
 *   `payload` (the classic JSON Sino's worker reads); null for sends stored before, which every
 *   browser then gets in the classic form.
 * - `subscriptions.declarative`: whether the browser last said it shows declarative pushes (0/1).
 * - `notification_events.action`: which action button a click was on ("1", "2"); null for the
 *   notification itself and for other events.
 */
const CONTENT_TABLES = ["notifications", "templates"] as const;
const FLAGS = ["renotify", "require_interaction", "silent"] as const;

export const fullNotification: SinoMigration = {
  async up(db) {
    for (const table of CONTENT_TABLES) {
      await db.schema.alterTable(table).addColumn("actions", "text").execute();
      for (const flag of FLAGS) await db.schema.alterTable(table).addColumn(flag, "integer", (col) => col.notNull().defaultTo(0)).execute();
      await db.schema.alterTable(table).addColumn("app_badge", "integer").execute();
      await db.schema.alterTable(table).addColumn("data", "text").execute();
    }
    await db.schema.alterTable("templates").addColumn("badge", "text").execute();
    await db.schema.alterTable("notifications").addColumn("declarative_payload", "text").execute();
    await db.schema.alterTable("subscriptions").addColumn("declarative", "integer", (col) => col.notNull().defaultTo(0)).execute();
    await db.schema.alterTable("notification_events").addColumn("action", "text").execute();
  },

  async down(db) {
    await db.schema.alterTable("notification_events").dropColumn("action").execute();
    await db.schema.alterTable("subscriptions").dropColumn("declarative").execute();
    await db.schema.alterTable("notifications").dropColumn("declarative_payload").execute();
    await db.schema.alterTable("templates").dropColumn("badge").execute();
    for (const table of CONTENT_TABLES) {
      for (const column of ["data", "app_badge", ...FLAGS, "actions"]) await db.schema.alterTable(table).dropColumn(column).execute();
    }
  },
};
