import { normalizeEndpoint } from "../push/endpoint-policy.js";
import { constantTimeEqual } from "./constant-time.js";
import { toCount } from "./count.js";
import type { NotificationEventsTable } from "./schema.js";
import type { DatabaseHandle } from "./database.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";
import { writeTransaction } from "./write-transaction.js";

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
  readonly clickedByAction: ClicksByAction;
}

export interface NotificationEventsRepository {
  /** Once per (notification, subscription, type): a repeat is `duplicate` and changes nothing. */
  record(event: NewNotificationEvent, now: number): Promise<RecordEventResult>;
  countsFor(notificationId: number): Promise<EventCountsRecord>;
  /** Counts of several sends at once (a list page), keyed by notification id. */
  countsForMany(notificationIds: readonly number[]): Promise<Map<number, EventCountsRecord>>;
}

export const NO_EVENTS: EventCountsRecord = { shown: 0, clicked: 0, closed: 0, clickedByAction: { open: 0, "1": 0, "2": 0 } };

export function createNotificationEventsRepository(database: DatabaseHandle): NotificationEventsRepository {
  const { db } = database;
  async function record(event: NewNotificationEvent, now: number): Promise<RecordEventResult> {
    const subscription = await db.selectFrom("subscriptions").select(["id", "auth", "person_id", "site_id"]).where("endpoint", "=", normalizeEndpoint(event.endpoint)).executeTakeFirst();
    if (subscription === undefined) return "subscription_not_found";
    if (!constantTimeEqual(subscription.auth, event.auth)) return "auth_mismatch";
    const notification = await db.selectFrom("notifications").select("id").where("id", "=", event.notificationId).executeTakeFirst();
    if (notification === undefined) return "notification_not_found";
    return writeTransaction(database, async (trx) => {
      // Insert-if-absent in one statement: two reports racing each other still make one row.
      const inserted = await trx
        .insertInto("notification_events")
        .values({
          notification_id: event.notificationId,
          subscription_id: Number(subscription.id),
          type: event.type,
          created_at: now,
          action: event.type === "clicked" ? (event.action ?? null) : null,
        })
        .onConflict((oc) => oc.columns(["notification_id", "subscription_id", "type"]).doNothing())
        .returning("type")
        .executeTakeFirst();
      if (inserted === undefined) return "duplicate";
      // Segments test the last click (`clique há menos de 7 dias`); a repeated report changes nothing.
      if (event.type === "clicked") await trx.updateTable("subscriptions").set({ last_clicked_at: now }).where("id", "=", Number(subscription.id)).execute();
      // Only a report newly recorded is an event: a service worker repeating itself is not.
      const data = {
        notificationId: String(event.notificationId),
        subscriptionId: String(subscription.id),
        userId: subscription.person_id,
        siteId: String(subscription.site_id),
        // Which part was clicked: the notification ("open") or an action button.
        ...(event.type === "clicked" ? { action: event.action ?? "open" } : {}),
      };
      await enqueueWebhookEvents(trx, [{ type: `recipient.${event.type}`, data }], now);
      return "recorded";
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
    for (const row of rows) {
      const id = Number(row.notification_id);
      const before = result.get(id) ?? NO_EVENTS;
      const n = toCount(row.n);
      const counts = { ...before, [row.type]: before[row.type] + n };
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

  return { record, countsFor, countsForMany };
}

/** Clicks per accepted push; null when nothing was accepted (no rate to speak of). */
export function clickRate(clicked: number, accepted: number): number | null {
  return accepted === 0 ? null : clicked / accepted;
}
