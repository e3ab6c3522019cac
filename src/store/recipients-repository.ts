import type { Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import type { RecipientOutcome, Schema } from "./schema.js";

/** What became of one push to one subscription, with what its service worker reported. */
export interface RecipientRecord {
  readonly notificationId: number;
  readonly subscriptionId: number;
  readonly personId: string | null;
  readonly siteId: number | null;
  /** Null when the site was deleted since (the row outlives it) or for Sino's own site. */
  readonly siteOrigin: string | null;
  readonly siteBuiltIn: boolean;
  readonly outcome: RecipientOutcome;
  readonly reason: string | null;
  readonly attempts: number;
  readonly updatedAt: number;
  readonly shownAt: number | null;
  readonly clickedAt: number | null;
  readonly closedAt: number | null;
}

export interface RecipientsQuery {
  readonly outcome?: RecipientOutcome;
  /** Keyset: only subscriptions with a greater id. */
  readonly after?: number;
  readonly limit: number;
}

export interface RecipientsRepository {
  /** A notification's recipients in subscription-id order; never endpoints or keys (they are not here). */
  listForNotification(notificationId: number, query: RecipientsQuery): Promise<RecipientRecord[]>;
}

/**
 * `notification_recipients` with its site and the three reports of its service worker. Each
 * report is at most one row per (send, subscription, type) (the events' unique key), so the three
 * left joins never multiply rows.
 */
export function recipientsWithEvents(db: Kysely<Schema>) {
  return db
    .selectFrom("notification_recipients as r")
    .leftJoin("sites", "sites.id", "r.site_id")
    .leftJoin("notification_events as e_shown", (join) =>
      join.onRef("e_shown.notification_id", "=", "r.notification_id").onRef("e_shown.subscription_id", "=", "r.subscription_id").on("e_shown.type", "=", "shown"),
    )
    .leftJoin("notification_events as e_clicked", (join) =>
      join.onRef("e_clicked.notification_id", "=", "r.notification_id").onRef("e_clicked.subscription_id", "=", "r.subscription_id").on("e_clicked.type", "=", "clicked"),
    )
    .leftJoin("notification_events as e_closed", (join) =>
      join.onRef("e_closed.notification_id", "=", "r.notification_id").onRef("e_closed.subscription_id", "=", "r.subscription_id").on("e_closed.type", "=", "closed"),
    )
    .select([
      "r.notification_id",
      "r.subscription_id",
      "r.person_id",
      "r.site_id",
      "sites.origin as site_origin",
      "sites.built_in as site_built_in",
      "r.outcome",
      "r.reason",
      "r.attempts",
      "r.updated_at",
      "e_shown.created_at as shown_at",
      "e_clicked.created_at as clicked_at",
      "e_closed.created_at as closed_at",
    ]);
}

type RecipientRow = Awaited<ReturnType<ReturnType<typeof recipientsWithEvents>["execute"]>>[number];

export function toRecipientRecord(row: RecipientRow): RecipientRecord {
  const at = (value: number | null) => (value === null ? null : Number(value));
  return {
    notificationId: Number(row.notification_id),
    subscriptionId: Number(row.subscription_id),
    personId: row.person_id,
    siteId: row.site_id === null ? null : Number(row.site_id),
    siteOrigin: row.site_origin,
    siteBuiltIn: Number(row.site_built_in ?? 0) === 1,
    outcome: row.outcome,
    reason: row.reason,
    attempts: Number(row.attempts),
    updatedAt: Number(row.updated_at),
    shownAt: at(row.shown_at),
    clickedAt: at(row.clicked_at),
    closedAt: at(row.closed_at),
  };
}

export function createRecipientsRepository(database: DatabaseHandle): RecipientsRepository {
  const { db } = database;

  async function listForNotification(notificationId: number, query: RecipientsQuery): Promise<RecipientRecord[]> {
    const rows = await recipientsWithEvents(db)
      .where("r.notification_id", "=", notificationId)
      .$if(query.outcome !== undefined, (qb) => qb.where("r.outcome", "=", query.outcome!))
      .$if(query.after !== undefined, (qb) => qb.where("r.subscription_id", ">", query.after!))
      .orderBy("r.subscription_id")
      .limit(query.limit)
      .execute();
    return rows.map(toRecipientRecord);
  }

  return { listForNotification };
}
