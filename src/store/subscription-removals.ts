import type { Kysely } from "kysely";
import type { RemovalReason, Schema } from "./schema.js";

/**
 * Deletes subscriptions and logs each removal with its reason, inside the caller's transaction, so
 * "removed per day" counts exactly what went. Returns the ids actually deleted (a concurrent
 * removal of the same row is counted once, by whoever deleted it).
 */
export async function removeSubscriptionsLogged(
  trx: Kysely<Schema>,
  ids: readonly number[],
  reason: RemovalReason,
  now: number,
): Promise<number[]> {
  if (ids.length === 0) return [];
  const deleted = await trx.deleteFrom("subscriptions").where("id", "in", [...ids]).returning(["id", "created_at", "site_id"]).execute();
  if (deleted.length > 0) {
    await trx
      .insertInto("subscription_removals")
      .values(deleted.map((row) => ({ removed_at: now, reason, subscription_created_at: Number(row.created_at), site_id: Number(row.site_id) })))
      .execute();
  }
  return deleted.map((row) => Number(row.id));
}
