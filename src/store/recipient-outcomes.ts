import type { Kysely } from "kysely";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import type { Notification } from "./notifications-repository.js";
import type { RecipientOutcome, Schema } from "./schema.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";

/** Who a push went to, as a recipient row and a webhook event name them. */
export interface Recipient {
  readonly id: number;
  readonly personId: string | null;
  readonly siteId: number;
}

/** A first attempt's outcome for one recipient, as `notification_recipients` keeps it. */
export interface RecipientResult {
  readonly recipient: Recipient;
  readonly outcome: RecipientOutcome;
  readonly reason: string | null;
}

const INSERT_CHUNK = 500;

/**
 * Writes the first-attempt rows of one sub-batch inside the checkpoint's transaction: one
 * multi-row INSERT per chunk (8 columns × 500 rows stays far below both databases' parameter
 * limits). A row already there is left alone: a range is sent once per checkpoint, so a conflict
 * can only be a replay, never a newer outcome.
 */
export async function insertRecipientRows(trx: Kysely<Schema>, notificationId: number, results: readonly RecipientResult[], now: number): Promise<void> {
  for (let i = 0; i < results.length; i += INSERT_CHUNK) {
    const rows = results.slice(i, i + INSERT_CHUNK).map(({ recipient, outcome, reason }) => ({
      notification_id: notificationId,
      subscription_id: recipient.id,
      person_id: recipient.personId,
      site_id: recipient.siteId,
      outcome,
      reason,
      attempts: 1,
      updated_at: now,
    }));
    await trx
      .insertInto("notification_recipients")
      .values(rows)
      .onConflict((oc) => oc.columns(["notification_id", "subscription_id"]).doNothing())
      .execute();
  }
}

/** The `recipient.*` event of a final outcome (`retrying` and `waiting` have none: they are not final; `expired` is a failure). */
export function recipientEvent(notificationId: number, recipient: Recipient, outcome: RecipientOutcome, reason: string | null): WebhookEvent | undefined {
  if (outcome === "retrying" || outcome === "waiting") return undefined;
  // Kept back by the engagement gate (over the cap, sleeping): no push was made, nothing failed.
  if (outcome === "limited" || outcome === "asleep") return undefined;
  const data = { notificationId: String(notificationId), subscriptionId: String(recipient.id), userId: recipient.personId, siteId: String(recipient.siteId) };
  if (outcome === "accepted") return { type: "recipient.accepted", data };
  return { type: "recipient.failed", data: { ...data, reason: outcome === "removed" ? "gone" : (reason ?? "failed") } };
}

export function completedEvent(notification: Notification): WebhookEvent {
  return { type: "notification.completed", data: { notificationId: String(notification.id), status: notification.status, counts: notification.counts } };
}

/**
 * Queues the events `build` makes, only if some webhook is enabled: a sub-batch's events are
 * hundreds of objects, not worth building on the hot path of a server with no webhook. The check
 * runs in the caller's transaction, so a webhook registered a moment ago is never missed.
 */
export async function enqueueIfHooked(
  trx: Kysely<Schema>,
  build: () => readonly WebhookEvent[] | Promise<readonly WebhookEvent[]>,
  now: number,
): Promise<void> {
  const hook = await trx.selectFrom("webhooks").select("id").where("enabled", "=", 1).limit(1).executeTakeFirst();
  if (hook === undefined) return;
  await enqueueWebhookEvents(trx, await build(), now);
}

/** A recipient as a `notification_recipients` row names it (the subscription may be gone). */
export function recipientOfRow(row: { subscription_id: number; person_id: string | null; site_id: number | null }): Recipient {
  return { id: Number(row.subscription_id), personId: row.person_id, siteId: Number(row.site_id ?? 0) };
}
