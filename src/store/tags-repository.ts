import type { Kysely } from "kysely";
import { normalizeEndpoint } from "../push/endpoint-policy.js";
import { TAG_LIMITS, tagValueOf, typedTagValue, type Tags, type TagsPatch, type TagValue } from "../shared/api/tag-rule.js";
import { constantTimeEqual } from "./constant-time.js";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";
import type { SubscriptionProof } from "./subscription-channels-repository.js";
import { writeTransaction } from "./write-transaction.js";

/**
 * Tags (issue 24). Trusted tags live on people (`person_tags`, by person id: a person may be
 * tagged before any browser of theirs subscribes); visitor tags on one subscription
 * (`subscription_tags`). Every write keeps an owner at ≤ 100 tags (TAG_LIMITS.perOwner), checked
 * after the write inside its transaction, so a refused write stores nothing.
 */
export interface TagsRepository {
  personTags(personId: string): Promise<Tags>;
  /** Replaces all of a person's tags. */
  replacePersonTags(personId: string, tags: Tags, now: number): Promise<TagsChanged | TooManyTags>;
  /** Sets the given keys, removes those given as null, leaves the others. */
  mergePersonTags(personId: string, patch: TagsPatch, now: number): Promise<TagsChanged | TooManyTags>;
  /** Removes one tag (true) or nothing (false: the person had no such tag). */
  removePersonTag(personId: string, key: string): Promise<boolean>;
  /** Removes every tag of the person; returns how many there were. */
  clearPersonTags(personId: string): Promise<number>;
  /**
   * Many people in one transaction, all or nothing: `index` is the first item of `people` whose
   * person would end with more than 100 tags. A person listed twice gets both entries, in order.
   */
  bulkPersonTags(people: ReadonlyArray<{ personId: string; tags: Tags }>, mode: "merge" | "replace", now: number): Promise<{ updated: number } | TooManyTags>;
  /** Visitor tags of one subscription. */
  subscriptionTags(subscriptionId: number): Promise<Tags>;
  /** Visitor tags of many subscriptions at once (a page of subscribers, a person's devices). */
  subscriptionTagsOf(subscriptionIds: readonly number[]): Promise<Map<number, Tags>>;
  /** Trusted tags of many people at once (the subscribers' list). */
  personTagsOf(personIds: readonly string[]): Promise<Map<string, Tags>>;
  /**
   * The page (proving possession of its subscription) merges visitor tags, if the subscription's
   * site accepts them. Never touches a person's tags.
   */
  mergeVisitorTagsWithProof(proof: SubscriptionProof, patch: TagsPatch, now: number): Promise<VisitorTagsResult>;
}

/** The owner's tags after a write. */
export interface TagsChanged {
  readonly outcome: "changed";
  readonly tags: Tags;
}

export interface TooManyTags {
  readonly outcome: "too_many_tags";
  /** Bulk: the first item of the request over the limit. */
  readonly index?: number;
}

export type VisitorTagsResult =
  | { outcome: "changed"; subscriptionId: number; tags: Tags }
  | { outcome: "not_found" | "auth_mismatch" | "visitor_tags_disabled" }
  | TooManyTags;

/** Rows per INSERT: 6 parameters each keeps a statement far under SQLite's and PostgreSQL's limits. */
const INSERT_CHUNK = 500;
/** Ids per `IN (…)` list. */
const ID_CHUNK = 500;

class TooManyTagsError extends Error {
  constructor(readonly index?: number) {
    super("too_many_tags");
  }
}

interface TagRow {
  key: string;
  value: string | null;
  num_value: number | string | null;
  time_value: number | string | null;
  updated_at: number;
}

function rowOf(key: string, value: TagValue, now: number): TagRow {
  const typed = typedTagValue(value);
  return { key, value: typed.value, num_value: typed.num, time_value: typed.time, updated_at: now };
}

function tagsOf(rows: ReadonlyArray<{ key: string; value: string | null; num_value: number | string | null }>): Tags {
  const tags: Tags = {};
  for (const row of rows.slice().sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    tags[row.key] = tagValueOf({ value: row.value, num: row.num_value === null ? null : Number(row.num_value) });
  }
  return tags;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Upserts a person's tags, inside the caller's transaction. */
async function upsertPersonTags(trx: Kysely<Schema>, rows: ReadonlyArray<TagRow & { person_id: string }>): Promise<void> {
  for (const chunk of chunks(rows, INSERT_CHUNK)) {
    await trx
      .insertInto("person_tags")
      .values(chunk.map((r) => ({ ...r, num_value: r.num_value === null ? null : Number(r.num_value), time_value: r.time_value === null ? null : Number(r.time_value) })))
      .onConflict((oc) =>
        oc.columns(["person_id", "key"]).doUpdateSet((eb) => ({
          value: eb.ref("excluded.value"),
          num_value: eb.ref("excluded.num_value"),
          time_value: eb.ref("excluded.time_value"),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      )
      .execute();
  }
}

async function readPersonTags(q: Kysely<Schema>, personId: string): Promise<Tags> {
  return tagsOf(await q.selectFrom("person_tags").select(["key", "value", "num_value"]).where("person_id", "=", personId).execute());
}

/**
 * Merges a person's tags inside the caller's transaction (a signed identification carries them);
 * throws TooManyTagsError over the limit, rolling the caller's transaction back.
 */
export async function mergePersonTagsIn(trx: Kysely<Schema>, personId: string, patch: TagsPatch, now: number): Promise<Tags> {
  const removed = Object.keys(patch).filter((key) => patch[key] === null);
  if (removed.length > 0) await trx.deleteFrom("person_tags").where("person_id", "=", personId).where("key", "in", removed).execute();
  const set = Object.entries(patch).filter((entry): entry is [string, TagValue] => entry[1] !== null);
  await upsertPersonTags(trx, set.map(([key, value]) => ({ person_id: personId, ...rowOf(key, value, now) })));
  const tags = await readPersonTags(trx, personId);
  if (Object.keys(tags).length > TAG_LIMITS.perOwner) throw new TooManyTagsError();
  return tags;
}

/** Whether an error is the over-the-limit refusal of mergePersonTagsIn (so a caller can answer 400). */
export function isTooManyTags(error: unknown): boolean {
  return error instanceof TooManyTagsError;
}

async function tooManyAsResult<T>(work: () => Promise<T>): Promise<T | TooManyTags> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof TooManyTagsError) return error.index === undefined ? { outcome: "too_many_tags" } : { outcome: "too_many_tags", index: error.index };
    throw error;
  }
}

export function createTagsRepository(database: DatabaseHandle): TagsRepository {
  const { db } = database;

  function personTags(personId: string): Promise<Tags> {
    return readPersonTags(db, personId);
  }

  function replacePersonTags(personId: string, tags: Tags, now: number): Promise<TagsChanged | TooManyTags> {
    return tooManyAsResult(() =>
      writeTransaction(database, async (trx) => {
        await trx.deleteFrom("person_tags").where("person_id", "=", personId).execute();
        return { outcome: "changed" as const, tags: await mergePersonTagsIn(trx, personId, tags, now) };
      }),
    );
  }

  function mergePersonTags(personId: string, patch: TagsPatch, now: number): Promise<TagsChanged | TooManyTags> {
    return tooManyAsResult(() => writeTransaction(database, async (trx) => ({ outcome: "changed" as const, tags: await mergePersonTagsIn(trx, personId, patch, now) })));
  }

  async function removePersonTag(personId: string, key: string): Promise<boolean> {
    const result = await db.deleteFrom("person_tags").where("person_id", "=", personId).where("key", "=", key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async function clearPersonTags(personId: string): Promise<number> {
    const result = await db.deleteFrom("person_tags").where("person_id", "=", personId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  function bulkPersonTags(people: ReadonlyArray<{ personId: string; tags: Tags }>, mode: "merge" | "replace", now: number) {
    // One entry per person (a person listed twice: replace keeps the last, merge combines them in
    // order), so no statement touches a row twice (PostgreSQL refuses that in one upsert).
    const combined = new Map<string, { tags: Tags; index: number }>();
    people.forEach((item, index) => {
      const earlier = combined.get(item.personId);
      const tags = mode === "merge" && earlier !== undefined ? { ...earlier.tags, ...item.tags } : item.tags;
      combined.set(item.personId, { tags, index: earlier?.index ?? index });
    });
    return tooManyAsResult(() =>
      writeTransaction(database, async (trx) => {
        const ids = [...combined.keys()];
        if (mode === "replace") for (const chunk of chunks(ids, ID_CHUNK)) await trx.deleteFrom("person_tags").where("person_id", "in", chunk).execute();
        const rows: Array<TagRow & { person_id: string }> = [];
        for (const [personId, { tags }] of combined) for (const [key, value] of Object.entries(tags)) rows.push({ person_id: personId, ...rowOf(key, value, now) });
        await upsertPersonTags(trx, rows);
        for (const chunk of chunks(ids, ID_CHUNK)) {
          const over = await trx
            .selectFrom("person_tags")
            .select("person_id")
            .where("person_id", "in", chunk)
            .groupBy("person_id")
            .having((eb) => eb.fn.countAll(), ">", TAG_LIMITS.perOwner)
            .execute();
          if (over.length > 0) throw new TooManyTagsError(Math.min(...over.map((r) => combined.get(r.person_id)!.index)));
        }
        return { updated: combined.size };
      }),
    );
  }

  async function subscriptionTags(subscriptionId: number): Promise<Tags> {
    return tagsOf(await db.selectFrom("subscription_tags").select(["key", "value", "num_value"]).where("subscription_id", "=", subscriptionId).execute());
  }

  async function subscriptionTagsOf(subscriptionIds: readonly number[]): Promise<Map<number, Tags>> {
    const bySubscription = new Map<number, Tags>();
    for (const chunk of chunks([...new Set(subscriptionIds)], ID_CHUNK)) {
      const rows = await db.selectFrom("subscription_tags").select(["subscription_id", "key", "value", "num_value"]).where("subscription_id", "in", chunk).execute();
      for (const id of chunk) bySubscription.set(id, tagsOf(rows.filter((r) => Number(r.subscription_id) === id)));
    }
    return bySubscription;
  }

  async function personTagsOf(personIds: readonly string[]): Promise<Map<string, Tags>> {
    const byPerson = new Map<string, Tags>();
    for (const chunk of chunks([...new Set(personIds)], ID_CHUNK)) {
      const rows = await db.selectFrom("person_tags").select(["person_id", "key", "value", "num_value"]).where("person_id", "in", chunk).execute();
      for (const id of chunk) byPerson.set(id, tagsOf(rows.filter((r) => r.person_id === id)));
    }
    return byPerson;
  }

  function mergeVisitorTagsWithProof(proof: SubscriptionProof, patch: TagsPatch, now: number): Promise<VisitorTagsResult> {
    return tooManyAsResult(() =>
      writeTransaction(database, async (trx): Promise<VisitorTagsResult> => {
        const subscription = await trx
          .selectFrom("subscriptions")
          .innerJoin("sites", "sites.id", "subscriptions.site_id")
          .select(["subscriptions.id", "subscriptions.auth", "sites.visitor_tags"])
          .where("subscriptions.endpoint", "=", normalizeEndpoint(proof.endpoint))
          .executeTakeFirst();
        if (subscription === undefined) return { outcome: "not_found" };
        if (!constantTimeEqual(subscription.auth, proof.auth)) return { outcome: "auth_mismatch" };
        if (Number(subscription.visitor_tags) !== 1) return { outcome: "visitor_tags_disabled" };
        const id = Number(subscription.id);
        const removed = Object.keys(patch).filter((key) => patch[key] === null);
        if (removed.length > 0) await trx.deleteFrom("subscription_tags").where("subscription_id", "=", id).where("key", "in", removed).execute();
        const set = Object.entries(patch).filter((entry): entry is [string, TagValue] => entry[1] !== null);
        if (set.length > 0) {
          await trx
            .insertInto("subscription_tags")
            .values(
              set.map(([key, value]) => {
                const typed = typedTagValue(value);
                return { subscription_id: id, key, value: typed.value, num_value: typed.num, time_value: typed.time, updated_at: now };
              }),
            )
            .onConflict((oc) =>
              oc.columns(["subscription_id", "key"]).doUpdateSet((eb) => ({
                value: eb.ref("excluded.value"),
                num_value: eb.ref("excluded.num_value"),
                time_value: eb.ref("excluded.time_value"),
                updated_at: eb.ref("excluded.updated_at"),
              })),
            )
            .execute();
        }
        const rows = await trx.selectFrom("subscription_tags").select(["key", "value", "num_value"]).where("subscription_id", "=", id).execute();
        if (rows.length > TAG_LIMITS.perOwner) throw new TooManyTagsError();
        return { outcome: "changed", subscriptionId: id, tags: tagsOf(rows) };
      }),
    );
  }

  return {
    personTags,
    replacePersonTags,
    mergePersonTags,
    removePersonTag,
    clearPersonTags,
    bulkPersonTags,
    subscriptionTags,
    subscriptionTagsOf,
    personTagsOf,
    mergeVisitorTagsWithProof,
  };
}
