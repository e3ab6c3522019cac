import type { Kysely } from "kysely";
import type { RemovalReason, Schema } from "./schema.js";
import { subscriptionRemoved } from "./subscription-events.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";

/**
 * Deletes subscriptions and logs each removal with its reason, inside the caller's transaction, so
 * "removed per day" counts exactly what went. Returns the ids actually deleted (a concurrent
 * removal of the same row is counted once, by whoever deleted it). Each removal queues
 * `subscription.removed` with its reason; the delete itself returns the person and site the event
 * names, so a delivery checkpoint that removes nothing pays nothing, and one that does pays one
 * small read of the webhooks table.
 */
export async function removeSubscriptionsLogged(
  trx: Kysely<Schema>,
  ids: readonly number[],
  reason: RemovalReason,
  now: number,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const deleted = await trx
    .deleteFrom("subscriptions")
    .where("id", "in", [...ids])
    .returning(["id", "created_at", "site_id", "person_id"])
    .execute();
  if (deleted.length > 0) {
    await trx
      .insertInto("subscription_removals")
      .values(deleted.map((row) => ({ removed_at: now, reason, subscription_created_at: Number(row.created_at), site_id: Number(row.site_id) })))
      .execute();
    await enqueueWebhookEvents(
      trx,
      deleted.map((row) => subscriptionRemoved(Number(row.id), row.person_id, Number(row.site_id), reason)),
      now,
    );
  }
  return deleted.map((row) => Number(row.id));
}
