import { sql, type Insertable } from "kysely";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import { normalizeEndpoint } from "../push/endpoint-policy.js";
import { constantTimeEqual } from "./constant-time.js";
import { toCount } from "./count.js";
import type { NotificationEventsTable } from "./schema.js";
import type { DatabaseHandle } from "./database.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";
import { writeTransaction } from "./write-transaction.js";
import { recordLastShown } from "./subscription-activity.js";

export type NotificationEventType = NotificationEventsTable["type"];

export interface NewNotificationEvent {
  readonly notificationId: number;
  readonly type: NotificationEventType;
  readonly endpoint: string;
  readonly auth: string;
  /** A click on an action button ("1", "2"); absent: the notification itself. Only with `clicked`. */
  readonly action?: "1" | "2" | undefined;
}

export type RecordEventResult = "recorded" | "duplicate" | "notification_not_found" | "subscription_not_found" | "auth_mismatch";

/** Clicks by where: the notification itself (`open`) or action button 1 or 2. */
export interface ClicksByAction {
  readonly open: number;
  readonly "1": number;
  readonly "2": number;
}

export interface EventCountsRecord {
  readonly shown: number;
  readonly clicked: number;
  readonly closed: number;
  /** Pushes a service worker received but could not show (unreadable payload, showNotification refused). */
  readonly notShown: number;
  readonly clickedByAction: ClicksByAction;
}

/** One report of a batch, with the time its request arrived. */
export interface TimedNotificationEvent {
  readonly event: NewNotificationEvent;
  readonly now: number;
}

export interface NotificationEventsRepository {
  /** Once per (notification, subscription, type): a repeat is `duplicate` and changes nothing. */
  record(event: NewNotificationEvent, now: number): Promise<RecordEventResult>;
  /**
   * Several reports in ONE transaction (group commit), one result per report in order: the same
   * results `record` gives each alone. The lookups are one indexed query per batch, not per report.
   */
  recordBatch(events: readonly TimedNotificationEvent[]): Promise<RecordEventResult[]>;
  countsFor(notificationId: number): Promise<EventCountsRecord>;
  /** Counts of several sends at once (a list page), keyed by notification id. */
  countsForMany(notificationIds: readonly number[]): Promise<Map<number, EventCountsRecord>>;
}

export const NO_EVENTS: EventCountsRecord = { shown: 0, clicked: 0, closed: 0, notShown: 0, clickedByAction: { open: 0, "1": 0, "2": 0 } };

/** The stored row of a report (new columns of a report go here, and nowhere else). */
function eventRow(event: NewNotificationEvent, subscriptionId: number, now: number): Insertable<NotificationEventsTable> {
  return {
    notification_id: event.notificationId,
    subscription_id: subscriptionId,
    type: event.type,
    created_at: now,
    action: event.type === "clicked" ? (event.action ?? null) : null,
  };
}

const eventKey = (notificationId: number, subscriptionId: number, type: string): string => `${notificationId}:${subscriptionId}:${type}`;

export function createNotificationEventsRepository(database: DatabaseHandle): NotificationEventsRepository {
  const { db } = database;

  async function record(event: NewNotificationEvent, now: number): Promise<RecordEventResult> {
    return (await recordBatch([{ event, now }]))[0]!;
  }

  function recordBatch(events: readonly TimedNotificationEvent[]): Promise<RecordEventResult[]> {
    if (events.length === 0) return Promise.resolve([]);
    return writeTransaction(database, async (trx) => {
      // Both lookups by index (endpoint is unique; id is the key), once for the whole batch.
      const endpoints = [...new Set(events.map(({ event }) => normalizeEndpoint(event.endpoint)))];
      const subscriptions = new Map(
        (await trx.selectFrom("subscriptions").select(["id", "endpoint", "auth", "person_id", "site_id"]).where("endpoint", "in", endpoints).execute()).map((s) => [s.endpoint, s]),
      );
      const notificationIds = [...new Set(events.map(({ event }) => event.notificationId))];
      const notifications = new Set((await trx.selectFrom("notifications").select("id").where("id", "in", notificationIds).execute()).map((n) => Number(n.id)));

      const results: RecordEventResult[] = [];
      // Insert-if-absent, in one statement: a repeated report (in this batch or an earlier one) makes one row.
      const rows = new Map<string, { index: number; row: Insertable<NotificationEventsTable>; subscription: { id: number; person_id: string | null; site_id: number } }>();
      events.forEach(({ event, now }, index) => {
        const subscription = subscriptions.get(normalizeEndpoint(event.endpoint));
        if (subscription === undefined) return void results.push("subscription_not_found");
        if (!constantTimeEqual(subscription.auth, event.auth)) return void results.push("auth_mismatch");
        if (!notifications.has(event.notificationId)) return void results.push("notification_not_found");
        const id = Number(subscription.id);
        const key = eventKey(event.notificationId, id, event.type);
        results.push("duplicate");
        if (!rows.has(key)) rows.set(key, { index, row: eventRow(event, id, now), subscription: { id, person_id: subscription.person_id, site_id: Number(subscription.site_id) } });
      });
      if (rows.size === 0) return results;
      const inserted = await trx
        .insertInto("notification_events")
        .values([...rows.values()].map((r) => r.row))
        .onConflict((oc) => oc.columns(["notification_id", "subscription_id", "type"]).doNothing())
        .returning(["notification_id", "subscription_id", "type"])
        .execute();

      const webhookEvents: WebhookEvent[] = [];
      const clickedAt = new Map<number, number>();
      const shownIds = new Set<number>();
      for (const row of inserted) {
        const recorded = rows.get(eventKey(Number(row.notification_id), Number(row.subscription_id), row.type))!;
        results[recorded.index] = "recorded";
        const { id, person_id, site_id } = recorded.subscription;
        // Segments test the last click (`clique há menos de 7 dias`); a repeated report changes nothing.
        if (row.type === "clicked") clickedAt.set(id, Math.max(clickedAt.get(id) ?? 0, Number(recorded.row.created_at)));
        if (row.type === "shown") shownIds.add(id);
        // A push that could not be shown is counted on the notification, not announced (no webhook event type for it).
        if (row.type === "not_shown") continue;
        // Only a report newly recorded is an event: a service worker repeating itself is not.
        webhookEvents.push({
          type: `recipient.${row.type}`,
          data: {
            notificationId: String(row.notification_id),
            subscriptionId: String(id),
            userId: person_id,
            siteId: String(site_id),
            // Which part was clicked: the notification ("open") or an action button.
            ...(row.type === "clicked" ? { action: recorded.row.action ?? "open" } : {}),
          },
        });
      }
      // In id order: two batches running at once (PostgreSQL) lock the rows in the same order.
      for (const [id, at] of [...clickedAt].sort((a, b) => a[0] - b[0])) {
        await trx.updateTable("subscriptions").set({ last_clicked_at: at }).where("id", "=", id).execute();
      }
      // Last shown: one statement for the whole batch (the batch's latest time stands for all of it).
      await recordLastShown(trx, [...shownIds], Math.max(...events.map((e) => e.now)));
      await enqueueWebhookEvents(trx, webhookEvents, Math.max(...events.map((e) => e.now)));
      return results;
    });
  }

  async function countsForMany(notificationIds: readonly number[]): Promise<Map<number, EventCountsRecord>> {
    const result = new Map<number, EventCountsRecord>();
    if (notificationIds.length === 0) return result;
    const rows = await db
      .selectFrom("notification_events")
      .select(["notification_id", "type", "action", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("notification_id", "in", [...notificationIds])
      .groupBy(["notification_id", "type", "action"])
      .execute();
    // Events past SINO_EVENT_RETENTION_DAYS live on as daily counts (retention-repository.ts).
    const rolledUp = await db
      .selectFrom("notification_event_days")
      .select(["notification_id", "type", (eb) => eb.fn.sum<number | string>("count").as("n"), (eb) => sql<string | null>`nullif(${eb.ref("action")}, '')`.as("action")])
      .where("notification_id", "in", [...notificationIds])
      .groupBy(["notification_id", "type", "action"])
      .execute();
    for (const row of [...rows, ...rolledUp]) {
      const id = Number(row.notification_id);
      const before = result.get(id) ?? NO_EVENTS;
      const n = toCount(row.n);
      const key = row.type === "not_shown" ? "notShown" : row.type;
      const counts = { ...before, [key]: before[key] + n };
      if (row.type === "clicked") {
        const where = row.action === "1" || row.action === "2" ? row.action : "open";
        counts.clickedByAction = { ...before.clickedByAction, [where]: before.clickedByAction[where] + n };
      }
      result.set(id, counts);
    }
    return result;
  }

  async function countsFor(notificationId: number): Promise<EventCountsRecord> {
    return (await countsForMany([notificationId])).get(notificationId) ?? NO_EVENTS;
  }

  return { record, recordBatch, countsFor, countsForMany };
}

/** Clicks per accepted push; null when nothing was accepted (no rate to speak of). */
export function clickRate(clicked: number, accepted: number): number | null {
  return accepted === 0 ? null : clicked / accepted;
}
