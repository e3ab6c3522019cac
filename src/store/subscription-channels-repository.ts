import type { Kysely } from "kysely";
import { normalizeEndpoint } from "../push/endpoint-policy.js";
import { foldForSearch } from "../shared/text/search-fold.js";
import { constantTimeEqual } from "./constant-time.js";
import { subscriptionByProof } from "./subscription-proof.js";
import { recordConsentChangeIn } from "./consent-records.js";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";

export interface SubscriptionProof {
  readonly endpoint: string;
  readonly auth: string;
}

export type ReplaceChannelsResult =
  | { readonly outcome: "replaced"; readonly channels: string[] }
  | { readonly outcome: "subscription_not_found" | "auth_mismatch" | "channel_not_found" | "too_many_channels" };

export interface SubscriptionChannelsRepository {
  /**
   * Replaces the subscription's choice of active channels, all or nothing: every slug must name an
   * active channel and there may be at most `max`. Memberships of archived channels are kept, so
   * un-archiving a channel gives its subscribers back.
   */
  replaceWithProof(proof: SubscriptionProof, slugs: readonly string[], max: number): Promise<ReplaceChannelsResult>;
  /** Several choices in ONE transaction (group commit), one result per choice in order, each as alone. */
  replaceBatch(items: readonly ChannelChoice[]): Promise<ReplaceChannelsResult[]>;
}

/** One subscriber's channel choice: proof of possession, the slugs, the most allowed. */
export interface ChannelChoice {
  readonly proof: SubscriptionProof;
  readonly slugs: readonly string[];
  readonly max: number;
  /** When the choice was made (the consent record's change); default: the wall clock. */
  readonly now?: number;
}

export function createSubscriptionChannelsRepository(database: DatabaseHandle): SubscriptionChannelsRepository {
  async function replaceWithProof(proof: SubscriptionProof, slugs: readonly string[], max: number): Promise<ReplaceChannelsResult> {
    return (await replaceBatch([{ proof, slugs, max }]))[0]!;
  }

  function replaceBatch(items: readonly ChannelChoice[]): Promise<ReplaceChannelsResult[]> {
    return writeTransaction(database, async (trx) => {
      const results: ReplaceChannelsResult[] = [];
      for (const item of items) results.push(await replaceIn(trx, item));
      return results;
    });
  }

  async function replaceIn(trx: Kysely<Schema>, { proof, slugs, max, now }: ChannelChoice): Promise<ReplaceChannelsResult> {
    const wanted = [...new Set(slugs)];
    if (wanted.length > max) return { outcome: "too_many_channels" };
    const subscription = await subscriptionByProof(trx, proof);
    if (subscription === "not_found") return { outcome: "subscription_not_found" };
    if (subscription === "auth_mismatch") return { outcome: "auth_mismatch" };
    const subscriptionId = subscription.id;
    const channels =
      wanted.length === 0
        ? []
        : await trx.selectFrom("channels").select("id").where("slug", "in", wanted).where("archived", "=", 0).execute();
    if (channels.length !== wanted.length) return { outcome: "channel_not_found" };

    await trx
      .deleteFrom("subscription_channels")
      .where("subscription_id", "=", subscriptionId)
      .where("channel_id", "in", (eb) => eb.selectFrom("channels").select("id").where("archived", "=", 0))
      .execute();
    if (channels.length > 0) {
      await trx
        .insertInto("subscription_channels")
        .values(channels.map((c) => ({ subscription_id: subscriptionId, channel_id: Number(c.id) })))
        .execute();
    }
    const chosen = await activeChannelSlugs(trx, subscriptionId);
    await recordConsentChangeIn(trx, subscriptionId, "channels", chosen, now ?? Date.now());
    return { outcome: "replaced", channels: chosen };
  }

  return { replaceWithProof, replaceBatch };
}

/** Slugs of the active channels a subscription receives, in slug order. */
export async function activeChannelSlugs(q: Kysely<Schema>, subscriptionId: number): Promise<string[]> {
  const rows = await q
    .selectFrom("subscription_channels")
    .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
    .select("channels.slug")
    .where("subscription_channels.subscription_id", "=", subscriptionId)
    .where("channels.archived", "=", 0)
    .orderBy("channels.slug")
    .execute();
  return rows.map((r) => r.slug);
}

/** A new subscription joins the active default channels. */
export async function joinDefaultChannels(q: Kysely<Schema>, subscriptionId: number): Promise<void> {
  await q
    .insertInto("subscription_channels")
    .columns(["subscription_id", "channel_id"])
    .expression((eb) =>
      eb
        .selectFrom("channels")
        .select([eb.val(subscriptionId).as("subscription_id"), "id as channel_id"])
        .where("is_default", "=", 1)
        .where("archived", "=", 0),
    )
    .onConflict((oc) => oc.columns(["subscription_id", "channel_id"]).doNothing())
    .execute();
}

/**
 * `pushsubscriptionchange`/key rotation: with valid proof of the previous subscription, its
 * channels become the new one's and the previous row is removed. `not_moved` when the proof fails
 * or it is the same subscription. Runs inside the caller's transaction.
 */
export async function moveChannelsFromPrevious(trx: Kysely<Schema>, previous: SubscriptionProof, subscriptionId: number): Promise<"moved" | "not_moved"> {
  const old = await trx
    .selectFrom("subscriptions")
    .select(["id", "auth", "person_id", "identified_at"])
    .where("endpoint", "=", normalizeEndpoint(previous.endpoint))
    .executeTakeFirst();
  if (old === undefined || Number(old.id) === subscriptionId || !constantTimeEqual(old.auth, previous.auth)) return "not_moved";
  const oldId = Number(old.id);
  await trx.deleteFrom("subscription_channels").where("subscription_id", "=", subscriptionId).execute();
  await trx
    .insertInto("subscription_channels")
    .columns(["subscription_id", "channel_id"])
    .expression((eb) =>
      eb
        .selectFrom("subscription_channels")
        .select([eb.val(subscriptionId).as("subscription_id"), "channel_id"])
        .where("subscription_id", "=", oldId),
    )
    .execute();
  // The same browser under a new endpoint keeps the person it was identified as (an identification
  // in the same registration then overrides it).
  if (old.person_id !== null) {
    await trx
      .updateTable("subscriptions")
      .set({ person_id: old.person_id, person_key: foldForSearch(old.person_id), identified_at: old.identified_at })
      .where("id", "=", subscriptionId)
      .where("person_id", "is", null)
      .execute();
  }
  // The same browser under a new endpoint: not a subscriber lost, so no removal is logged.
  await trx.deleteFrom("subscriptions").where("id", "=", oldId).execute();
  return "moved";
}
