import type { Kysely, Selectable } from "kysely";
import { normalizeEndpoint } from "../push/endpoint-policy.js";
import type { Schema, SubscriptionsTable } from "./schema.js";
import { constantTimeEqual } from "./constant-time.js";
import type { DatabaseHandle } from "./database.js";
import { activeChannelSlugs, joinDefaultChannels, moveChannelsFromPrevious, type SubscriptionProof } from "./subscription-channels-repository.js";
import { writeTransaction } from "./write-transaction.js";

export interface Subscription {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  createdAt: number;
  updatedAt: number;
  lastSeenAt: number;
  /** The site it was made on (the built-in site: Sino's own page). */
  siteId: number;
}

export interface RegisterSubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  /** The site a new subscription belongs to (default: the built-in site). An existing one keeps its own. */
  siteId?: number;
  /**
   * The subscription this one replaces (`pushsubscriptionchange`, key rotation), with its auth
   * secret as proof: its channels move to this one and its row goes. Without valid proof this is
   * simply a new subscription.
   */
  previous?: SubscriptionProof | undefined;
}

/**
 * `created`: a new row, in the default channels. `existing`: the endpoint was known with the same
 * auth secret; its p256dh/user agent were refreshed. Both come with the active channel slugs the
 * subscription now receives and whether a `previous` subscription's channels moved to it.
 * `auth_mismatch`: the endpoint is known with another auth secret; nothing changed (overwriting
 * the keys would silently unsubscribe the real browser, and knowing an endpoint must not be
 * enough for that).
 */
export type RegisterResult =
  | { outcome: "created" | "existing"; subscription: Subscription; channels: string[]; previousMoved: boolean }
  | { outcome: "auth_mismatch" };

export type RemoveResult = "removed" | "not_found" | "auth_mismatch";

export interface SubscriptionsRepository {
  /**
   * A browser's subscription, whole, in one transaction: the row (new or refreshed), the default
   * channels of a new one, the move from `previous`, and the channels it now has. A crash or a
   * refusal leaves none of it half done. The endpoint is stored in its one spelling.
   */
  register(input: RegisterSubscriptionInput, now: number): Promise<RegisterResult>;
  /** `now` stamps the removal log (default: the wall clock). */
  removeWithProof(endpoint: string, auth: string, now?: number): Promise<RemoveResult>;
  findByEndpoint(endpoint: string): Promise<Subscription | undefined>;
  count(): Promise<number>;
  /** Up to `limit` subscriptions with `id > afterId`, in id order: page through all with the last id. */
  listAfter(afterId: number, limit: number): Promise<Subscription[]>;
}

/** A concurrent remove can slip between our steps; retrying a few times always converges. */
const MAX_REGISTER_ATTEMPTS = 5;

export function createSubscriptionsRepository(database: DatabaseHandle): SubscriptionsRepository {
  const { db } = database;
  function findByEndpoint(endpoint: string): Promise<Subscription | undefined> {
    return findIn(db, endpoint);
  }

  function register(input: RegisterSubscriptionInput, now: number): Promise<RegisterResult> {
    return writeTransaction(database, async (trx) => {
      const row = await upsert(trx, { ...input, endpoint: normalizeEndpoint(input.endpoint) }, now);
      if (row.outcome === "auth_mismatch") return row;
      const id = row.subscription.id;
      if (row.outcome === "created") await joinDefaultChannels(trx, id);
      const previousMoved = input.previous !== undefined && (await moveChannelsFromPrevious(trx, input.previous, id)) === "moved";
      return { ...row, channels: await activeChannelSlugs(trx, id), previousMoved };
    });
  }

  async function upsert(
    trx: Kysely<Schema>,
    input: RegisterSubscriptionInput,
    now: number,
  ): Promise<{ outcome: "created" | "existing"; subscription: Subscription } | { outcome: "auth_mismatch" }> {
    for (let attempt = 0; attempt < MAX_REGISTER_ATTEMPTS; attempt++) {
      // Insert-if-absent is one atomic statement on both dialects, so two concurrent registrations
      // of the same endpoint can never both create a row; the loser takes the "existing" path.
      const inserted = await trx
        .insertInto("subscriptions")
        .values({
          endpoint: input.endpoint,
          p256dh: input.p256dh,
          auth: input.auth,
          user_agent: input.userAgent,
          created_at: now,
          updated_at: now,
          last_seen_at: now,
          ...(input.siteId === undefined ? {} : { site_id: input.siteId }),
        })
        .onConflict((oc) => oc.column("endpoint").doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted !== undefined) return { outcome: "created", subscription: toSubscription(inserted) };

      const existing = await findIn(trx, input.endpoint);
      if (existing === undefined) continue; // removed in between: insert again
      if (!constantTimeEqual(existing.auth, input.auth)) return { outcome: "auth_mismatch" };

      const keysChanged = existing.p256dh !== input.p256dh;
      const updated = await trx
        .updateTable("subscriptions")
        .set({
          p256dh: input.p256dh,
          user_agent: input.userAgent,
          last_seen_at: now,
          // The browser registered again (with the key Sino serves now): it may be sent to again.
          vapid_mismatch_at: null,
          ...(keysChanged ? { updated_at: now } : {}),
        })
        .where("id", "=", existing.id)
        .where("auth", "=", existing.auth)
        .returningAll()
        .executeTakeFirst();
      if (updated !== undefined) return { outcome: "existing", subscription: toSubscription(updated) };
    }
    throw new Error("Subscription registration kept racing with concurrent changes");
  }

  function removeWithProof(endpoint: string, auth: string, now: number = Date.now()): Promise<RemoveResult> {
    // The row and its removal log go together (the Painel's "removed per day" counts the log).
    return writeTransaction(database, async (trx) => {
      const existing = await findIn(trx, endpoint);
      if (existing === undefined) return "not_found";
      if (!constantTimeEqual(existing.auth, auth)) return "auth_mismatch";
      const deleted = await trx
        .deleteFrom("subscriptions")
        .where("id", "=", existing.id)
        .where("auth", "=", existing.auth)
        .returning(["created_at", "site_id"])
        .executeTakeFirst();
      if (deleted === undefined) return "not_found";
      await trx
        .insertInto("subscription_removals")
        .values({ removed_at: now, reason: "unsubscribed", subscription_created_at: Number(deleted.created_at), site_id: Number(deleted.site_id) })
        .execute();
      return "removed";
    });
  }

  async function count(): Promise<number> {
    const row = await db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.countAll<number | string | bigint>().as("n"))
      .executeTakeFirstOrThrow();
    // COUNT(*) is BIGINT on PostgreSQL; read it as a number on both dialects.
    return Number(row.n);
  }

  async function listAfter(afterId: number, limit: number): Promise<Subscription[]> {
    const rows = await db
      .selectFrom("subscriptions")
      .selectAll()
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toSubscription);
  }

  return { register, removeWithProof, findByEndpoint, count, listAfter };
}

async function findIn(q: Kysely<Schema>, endpoint: string): Promise<Subscription | undefined> {
  const row = await q.selectFrom("subscriptions").selectAll().where("endpoint", "=", normalizeEndpoint(endpoint)).executeTakeFirst();
  return row === undefined ? undefined : toSubscription(row);
}

function toSubscription(row: Selectable<SubscriptionsTable>): Subscription {
  return {
    id: Number(row.id),
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    userAgent: row.user_agent,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastSeenAt: Number(row.last_seen_at),
    siteId: Number(row.site_id),
  };
}
