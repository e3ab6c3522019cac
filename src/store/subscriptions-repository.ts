import type { Insertable, Kysely, Selectable } from "kysely";
import { normalizeEndpoint } from "../push/endpoint-policy.js";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import type { Schema, SubscriptionsTable } from "./schema.js";
import { constantTimeEqual } from "./constant-time.js";
import { moveConsentIn, recordConsentChangeIn, recordConsentIn, recordConsentsIn, type ConsentGiven } from "./consent-records.js";
import type { DatabaseHandle } from "./database.js";
import { readIdentityKeys, type SiteIdentityKeys } from "./sites-repository.js";
import { activeChannelSlugs, moveChannelsFromPrevious, type SubscriptionProof } from "./subscription-channels-repository.js";
import { subscriptionCreated, subscriptionRemoved } from "./subscription-events.js";
import { forgetSubscription, identifySubscription } from "./subscription-person.js";
import { mergePersonTagsIn } from "./tags-repository.js";
import type { Tags } from "../shared/api/tag-rule.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";
import { writeTransaction } from "./write-transaction.js";
import { isRepeatVisit, registrationFacts } from "./subscription-activity.js";

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
  /** The person (the host app's user id) it was last identified as; null: anonymous. */
  personId: string | null;
  identifiedAt: number | null;
}

/**
 * Tie the subscription to a person. `check` (absent for an API token's link, which needs no
 * proof) decides against the subscription's own site's keys, inside the transaction: a refusal
 * (`R`, the caller's reason) rolls back everything the same call did, the registration included.
 */
export interface PersonIdentification<R extends string> {
  readonly personId: string;
  readonly check?: (keys: SiteIdentityKeys) => R | null;
  /**
   * Trusted tags the (signed) claim carries, merged into the person's tags in the same
   * transaction; over the limit, the transaction rolls back (`isTooManyTags` of the error).
   */
  readonly tags?: Tags | undefined;
}

export interface RegisterSubscriptionInput<R extends string = never> {
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  /** The browser's IANA time zone, already validated; null/absent leaves a known one as it was. */
  timeZone?: string | null | undefined;
  /** Lowercase browser and platform names from the User-Agent (null: not recognised). */
  browser?: string | null | undefined;
  platform?: string | null | undefined;
  /**
   * Whether the browser shows Declarative Web Push messages, as it says on every registration:
   * stored each time (the latest wins), absent = false.
   */
  declarative?: boolean | undefined;
  /** The site a new subscription belongs to (default: the built-in site). An existing one keeps its own. */
  siteId?: number;
  /**
   * The VAPID key (`vapid_keys.id`; null: Sino's default) a new subscription was made with: its
   * pushes are signed with it. An existing one keeps its own (its endpoint is bound to that key).
   */
  vapidKeyId?: number | null | undefined;
  /** The bell replaced a subscription made with another key by this one ("migrada"). */
  migrated?: boolean | undefined;
  /**
   * The subscription this one replaces (`pushsubscriptionchange`, key rotation), with its auth
   * secret as proof: its channels move to this one and its row goes. Without valid proof this is
   * simply a new subscription.
   */
  previous?: SubscriptionProof | undefined;
  /** Identify the subscription too, in the same transaction (the bell sends the page's person). */
  person?: PersonIdentification<R> | undefined;
  /** The consent the bell showed (LGPD): recorded in the same transaction, once per subscription. */
  consent?: ConsentGiven | undefined;
}

/**
 * `created`: a new row, in the default channels. `existing`: the endpoint was known with the same
 * auth secret; its p256dh/user agent were refreshed. Both come with the active channel slugs the
 * subscription now receives and whether a `previous` subscription's channels moved to it.
 * `auth_mismatch`: the endpoint is known with another auth secret; nothing changed (overwriting
 * the keys would silently unsubscribe the real browser, and knowing an endpoint must not be
 * enough for that).
 */
export type RegisterResult<R extends string = never> =
  | { outcome: "created" | "existing"; subscription: Subscription; channels: string[]; previousMoved: boolean }
  | { outcome: "auth_mismatch" }
  | IdentityRefused<R>;

/** The identification's `check` refused: nothing of the call was stored. */
export interface IdentityRefused<R extends string> {
  outcome: "identity_refused";
  refusal: R;
}

export type RemoveResult = "removed" | "not_found" | "auth_mismatch";

/** One registration of a batch, with the time its request arrived. */
export interface TimedRegistration<R extends string = never> {
  readonly input: RegisterSubscriptionInput<R>;
  readonly now: number;
}

/** One unsubscribe of a batch: the proof of possession and the time its request arrived. */
export interface TimedRemoval {
  readonly endpoint: string;
  readonly auth: string;
  readonly now: number;
}

/**
 * One person change of a batch (PUT/DELETE /subscriptions/user): identify the subscription the
 * browser proves it holds as `person`, or make it anonymous again (`person` null).
 */
export interface TimedPersonChange<R extends string = never> {
  readonly proof: SubscriptionProof;
  readonly person: PersonIdentification<R> | null;
  readonly now: number;
}

export type PersonChangeOutcome<R extends string = never> = PersonChangeResult | ProofRefused | IdentityRefused<R>;

/** A subscription after a person change, with the channels it receives (for its presentation). */
export interface PersonChangeResult {
  outcome: "changed";
  subscription: Subscription;
  channels: string[];
}

export interface SubscriptionsRepository {
  /**
   * A browser's subscription, whole, in one transaction: the row (new or refreshed), the default
   * channels of a new one, the move from `previous`, and the channels it now has. A crash or a
   * refusal leaves none of it half done. The endpoint is stored in its one spelling.
   */
  register<R extends string = never>(input: RegisterSubscriptionInput<R>, now: number): Promise<RegisterResult<R>>;
  /**
   * Several registrations in ONE transaction (group commit), one result per item in order, each
   * as `register` gives it alone. A refused identification rolls the whole batch back (thrown):
   * the caller writes the items again one by one; alone, it is answered `identity_refused`.
   */
  registerBatch<R extends string = never>(items: ReadonlyArray<TimedRegistration<R>>): Promise<Array<RegisterResult<R>>>;
  /** `now` stamps the removal log (default: the wall clock). */
  removeWithProof(endpoint: string, auth: string, now?: number): Promise<RemoveResult>;
  /** Several unsubscribes in ONE transaction, one result per item in order. */
  removeBatch(items: readonly TimedRemoval[]): Promise<RemoveResult[]>;
  findByEndpoint(endpoint: string): Promise<Subscription | undefined>;
  count(): Promise<number>;
  /** Up to `limit` subscriptions with `id > afterId`, in id order: page through all with the last id. */
  listAfter(afterId: number, limit: number): Promise<Subscription[]>;
  /**
   * The browser (proving possession) identifies its subscription as a person; `person.check`
   * verifies the claim against the subscription's site. `person.identified` is queued with it.
   */
  identifyWithProof<R extends string>(
    proof: SubscriptionProof,
    person: PersonIdentification<R>,
    now: number,
  ): Promise<PersonChangeResult | ProofRefused | IdentityRefused<R>>;
  /** The browser makes its subscription anonymous again (channels kept); `person.forgotten` is queued. */
  forgetWithProof(proof: SubscriptionProof, now: number): Promise<PersonChangeResult | ProofRefused>;
  /**
   * Several identifications and forgets in ONE transaction (group commit), one result per item in
   * order, each as `identifyWithProof` / `forgetWithProof` give it alone. A refused identification
   * (or too many tags) rolls the whole batch back, thrown: the caller writes the items again one
   * by one; alone, a refusal is answered `identity_refused`.
   */
  changePeopleBatch<R extends string = never>(items: ReadonlyArray<TimedPersonChange<R>>): Promise<Array<PersonChangeOutcome<R>>>;
  /** An API caller ties the subscription with this endpoint to a person (no signature: it holds a token). */
  linkPerson(endpoint: string, personId: string, now: number): Promise<PersonChangeResult | { outcome: "not_found" }>;
  /** An API caller unties it, if it belongs to `personId` (another person's link is left alone). */
  unlinkPerson(endpoint: string, personId: string, now: number): Promise<PersonChangeResult | { outcome: "not_found" }>;
}

export type ProofRefused = { outcome: "not_found" } | { outcome: "auth_mismatch" };

/** What a site that no longer exists verifies against: a verifying site without a secret. */
const NO_KEYS: SiteIdentityKeys = { verification: true, secret: null, previousSecret: null, previousUntil: null };

/** Thrown inside a transaction to roll it back when an identification is refused. */
class IdentityRefusedError<R extends string> extends Error {
  constructor(readonly refusal: R) {
    super(refusal);
  }
}

/**
 * Identifies `subscription` as `person`, verifying first (the subscription's site's keys, read in
 * this transaction); a refusal throws `IdentityRefusedError`. Returns the events to queue.
 */
async function identifyChecked<R extends string>(
  trx: Kysely<Schema>,
  subscription: Subscription,
  person: PersonIdentification<R>,
  now: number,
): Promise<WebhookEvent[]> {
  if (person.check !== undefined) {
    // The site always exists here: deleting one deletes its subscriptions in the same transaction.
    const keys = await readIdentityKeys(trx, subscription.siteId);
    const refusal = person.check(keys ?? NO_KEYS);
    if (refusal !== null) throw new IdentityRefusedError(refusal);
  }
  if (person.tags !== undefined) await mergePersonTagsIn(trx, person.personId, person.tags, now);
  return identifySubscription(trx, subscription, person.personId, now);
}

/** The active default channels, by slug (the order `activeChannelSlugs` answers in). */
type DefaultChannels = ReadonlyArray<{ id: number; slug: string }>;

async function readDefaultChannels(trx: Kysely<Schema>): Promise<DefaultChannels> {
  const rows = await trx.selectFrom("channels").select(["id", "slug"]).where("is_default", "=", 1).where("archived", "=", 0).orderBy("slug").execute();
  return rows.map((row) => ({ id: Number(row.id), slug: row.slug }));
}

/** A concurrent remove can slip between our steps; retrying a few times always converges. */
const MAX_REGISTER_ATTEMPTS = 5;

export function createSubscriptionsRepository(database: DatabaseHandle): SubscriptionsRepository {
  const { db } = database;
  function findByEndpoint(endpoint: string): Promise<Subscription | undefined> {
    return findIn(db, endpoint);
  }

  async function register<R extends string = never>(input: RegisterSubscriptionInput<R>, now: number): Promise<RegisterResult<R>> {
    return (await registerBatch([{ input, now }]))[0]!;
  }

  async function registerBatch<R extends string = never>(items: ReadonlyArray<TimedRegistration<R>>): Promise<Array<RegisterResult<R>>> {
    try {
      return await writeTransaction(database, async (trx) => {
        const results: Array<RegisterResult<R>> = [];
        const events: WebhookEvent[] = [];
        // Every new subscription of the batch joins the same default channels: read them once.
        let defaults: DefaultChannels | undefined;
        const defaultChannels = async () => (defaults ??= await readDefaultChannels(trx));
        // New browsers first, together; then, one by one, whatever that left unanswered. The
        // requests of a batch were concurrent, so any order among them is an order they could
        // have arrived in.
        const created = await registerNewIn(trx, items, events, defaultChannels);
        for (const [index, { input, now }] of items.entries()) results.push(created.get(index) ?? (await registerIn(trx, input, now, events, defaultChannels)));
        // The webhooks table read once per batch, not once per registration.
        await enqueueWebhookEvents(trx, events, Math.max(...items.map((item) => item.now)));
        return results;
      });
    } catch (error) {
      // A refusal rolled the whole transaction back: alone, it is this registration's answer; in a
      // batch, the caller writes each registration again on its own (see group-commit.ts).
      if (items.length === 1 && error instanceof IdentityRefusedError) return [{ outcome: "identity_refused", refusal: (error as IdentityRefusedError<R>).refusal }];
      throw error;
    }
  }

  /**
   * The batch's new browsers in a constant number of statements: one insert-if-absent of every
   * registration with nothing more to do than be stored (no `previous` to move, no person to
   * identify; the first of each endpoint in the batch), one insert of their default channels,
   * one of their consent records. Answers, by index, those it created, each as `registerIn`
   * would have: an endpoint already known is left for `registerIn` (refreshed, or refused).
   */
  async function registerNewIn<R extends string>(
    trx: Kysely<Schema>,
    items: ReadonlyArray<TimedRegistration<R>>,
    events: WebhookEvent[],
    defaultChannels: () => Promise<DefaultChannels>,
  ): Promise<Map<number, RegisterResult<R>>> {
    const candidates = new Map<string, { index: number; input: RegisterSubscriptionInput<R>; now: number }>();
    items.forEach(({ input, now }, index) => {
      if (input.previous !== undefined || input.person !== undefined) return;
      const endpoint = normalizeEndpoint(input.endpoint);
      if (!candidates.has(endpoint)) candidates.set(endpoint, { index, input: { ...input, endpoint }, now });
    });
    const results = new Map<number, RegisterResult<R>>();
    if (candidates.size === 0) return results;
    // In endpoint order: two batches at once (PostgreSQL) meet on the unique index in the same order.
    const rows = [...candidates.values()].sort((a, b) => (a.input.endpoint < b.input.endpoint ? -1 : 1)).map(({ input, now }) => newSubscriptionRow(input, now));
    const inserted: Array<Selectable<SubscriptionsTable>> = [];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      inserted.push(...(await trx.insertInto("subscriptions").values(rows.slice(i, i + INSERT_CHUNK)).onConflict((oc) => oc.column("endpoint").doNothing()).returningAll().execute()));
    }
    if (inserted.length === 0) return results;
    const joined = await defaultChannels();
    const memberships = inserted.flatMap((row) => joined.map((channel) => ({ subscription_id: Number(row.id), channel_id: channel.id })));
    for (let i = 0; i < memberships.length; i += INSERT_CHUNK) await trx.insertInto("subscription_channels").values(memberships.slice(i, i + INSERT_CHUNK)).execute();
    const channels = joined.map((channel) => channel.slug);
    const consents: Array<{ subscription: Subscription; consent: ConsentGiven; now: number }> = [];
    for (const row of inserted) {
      const { index, input, now } = candidates.get(row.endpoint)!;
      const subscription = toSubscription(row);
      results.set(index, { outcome: "created", subscription, channels: [...channels], previousMoved: false });
      events.push(subscriptionCreated(subscription.id, subscription.personId, subscription.siteId));
      if (input.consent !== undefined) consents.push({ subscription, consent: input.consent, now });
    }
    await recordConsentsIn(trx, consents, channels);
    return results;
  }

  /** One registration inside the batch's transaction; its webhook events go to `events`. */
  async function registerIn<R extends string>(
    trx: Kysely<Schema>,
    input: RegisterSubscriptionInput<R>,
    now: number,
    events: WebhookEvent[],
    defaultChannels: () => Promise<DefaultChannels>,
  ): Promise<RegisterResult<R>> {
    const row = await upsert(trx, { ...input, endpoint: normalizeEndpoint(input.endpoint) }, now);
    if (row.outcome === "auth_mismatch") return row;
    let subscription = row.subscription;
    const id = subscription.id;
    const joined = row.outcome === "created" ? await defaultChannels() : undefined;
    if (joined !== undefined && joined.length > 0) {
      await trx.insertInto("subscription_channels").values(joined.map((channel) => ({ subscription_id: id, channel_id: channel.id }))).execute();
    }
    const previousId = input.previous === undefined ? undefined : (await findIn(trx, input.previous.endpoint))?.id;
    const previousMoved = input.previous !== undefined && (await moveChannelsFromPrevious(trx, input.previous, id)) === "moved";
    if (previousMoved && previousId !== undefined) await moveConsentIn(trx, previousId, id);
    // The move may have brought the previous subscription's person along.
    if (previousMoved) subscription = (await findByIdIn(trx, id)) ?? subscription;
    const personEvents = input.person === undefined ? [] : await identifyChecked(trx, subscription, input.person, now);
    if (personEvents.length > 0) subscription = { ...subscription, personId: input.person!.personId, identifiedAt: now };
    if (row.outcome === "created") events.push(subscriptionCreated(subscription.id, subscription.personId, subscription.siteId));
    events.push(...personEvents);
    // A new subscription has exactly the default channels, unless a previous one's moved in.
    const channels = joined !== undefined && !previousMoved ? joined.map((channel) => channel.slug) : await activeChannelSlugs(trx, id);
    if (input.consent !== undefined) await recordConsentIn(trx, subscription, input.consent, channels, now);
    return { outcome: row.outcome, subscription, channels, previousMoved };
  }

  /** The subscription with this endpoint, if `auth` proves possession of it. */
  async function withProof(trx: Kysely<Schema>, proof: SubscriptionProof): Promise<Subscription | ProofRefused> {
    const existing = await findIn(trx, proof.endpoint);
    if (existing === undefined) return { outcome: "not_found" };
    if (!constantTimeEqual(existing.auth, proof.auth)) return { outcome: "auth_mismatch" };
    return existing;
  }

  /** Applies a person change to `subscription` and answers with it as it now is. */
  async function changed(trx: Kysely<Schema>, subscription: Subscription, events: WebhookEvent[], now: number): Promise<PersonChangeResult> {
    await enqueueWebhookEvents(trx, events, now);
    const current = (await findByIdIn(trx, subscription.id)) ?? subscription;
    return { outcome: "changed", subscription: current, channels: await activeChannelSlugs(trx, subscription.id) };
  }

  async function identifyWithProof<R extends string>(proof: SubscriptionProof, person: PersonIdentification<R>, now: number): Promise<PersonChangeOutcome<R>> {
    return (await changePeopleBatch([{ proof, person, now }]))[0]!;
  }

  async function forgetWithProof(proof: SubscriptionProof, now: number): Promise<PersonChangeResult | ProofRefused> {
    const result = (await changePeopleBatch([{ proof, person: null, now }]))[0]!;
    // Forgetting checks no claim: nothing can refuse it.
    if (result.outcome === "identity_refused") throw new Error("a forget was refused as an identification");
    return result;
  }

  async function changePeopleBatch<R extends string = never>(items: ReadonlyArray<TimedPersonChange<R>>): Promise<Array<PersonChangeOutcome<R>>> {
    try {
      return await writeTransaction(database, async (trx) => {
        const results: Array<PersonChangeOutcome<R>> = [];
        for (const item of items) results.push(await changePersonIn(trx, item));
        return results;
      });
    } catch (error) {
      // As registerBatch: alone, a refusal is this change's answer; in a batch, each goes again alone.
      if (items.length === 1 && error instanceof IdentityRefusedError) return [{ outcome: "identity_refused", refusal: (error as IdentityRefusedError<R>).refusal }];
      throw error;
    }
  }

  async function changePersonIn<R extends string>(trx: Kysely<Schema>, { proof, person, now }: TimedPersonChange<R>): Promise<PersonChangeResult | ProofRefused> {
    const subscription = await withProof(trx, proof);
    if ("outcome" in subscription) return subscription;
    const events = person === null ? await forgetSubscription(trx, subscription) : await identifyChecked(trx, subscription, person, now);
    return changed(trx, subscription, events, now);
  }

  function linkPerson(endpoint: string, personId: string, now: number): Promise<PersonChangeResult | { outcome: "not_found" }> {
    return writeTransaction(database, async (trx) => {
      const subscription = await findIn(trx, endpoint);
      if (subscription === undefined) return { outcome: "not_found" } as const;
      return changed(trx, subscription, await identifySubscription(trx, subscription, personId, now), now);
    });
  }

  function unlinkPerson(endpoint: string, personId: string, now: number): Promise<PersonChangeResult | { outcome: "not_found" }> {
    return writeTransaction(database, async (trx) => {
      const subscription = await findIn(trx, endpoint);
      if (subscription === undefined) return { outcome: "not_found" } as const;
      const events = subscription.personId === personId ? await forgetSubscription(trx, subscription) : [];
      return changed(trx, subscription, events, now);
    });
  }

  async function upsert(
    trx: Kysely<Schema>,
    input: RegisterSubscriptionInput<string>,
    now: number,
  ): Promise<{ outcome: "created" | "existing"; subscription: Subscription } | { outcome: "auth_mismatch" }> {
    for (let attempt = 0; attempt < MAX_REGISTER_ATTEMPTS; attempt++) {
      // Insert-if-absent is one atomic statement on both dialects, so two concurrent registrations
      // of the same endpoint can never both create a row; the loser takes the "existing" path.
      const inserted = await trx
        .insertInto("subscriptions")
        .values(newSubscriptionRow(input, now))
        .onConflict((oc) => oc.column("endpoint").doNothing())
        .returningAll()
        .executeTakeFirst();
      if (inserted !== undefined) return { outcome: "created", subscription: toSubscription(inserted) };

      const stored = await trx.selectFrom("subscriptions").selectAll().where("endpoint", "=", input.endpoint).executeTakeFirst();
      if (stored === undefined) continue; // removed in between: insert again
      const existing = toSubscription(stored);
      if (!constantTimeEqual(existing.auth, input.auth)) return { outcome: "auth_mismatch" };
      // A visit is written at most once a day per browser (subscription-activity.ts).
      if (isRepeatVisit(registrationFacts(stored), registrationFacts(input), now)) return { outcome: "existing", subscription: existing };

      const keysChanged = existing.p256dh !== input.p256dh;
      const updated = await trx
        .updateTable("subscriptions")
        .set({
          p256dh: input.p256dh,
          user_agent: input.userAgent,
          ...(input.timeZone == null ? {} : { time_zone: input.timeZone }),
          browser: input.browser ?? null,
          platform: input.platform ?? null,
          declarative: input.declarative === true ? 1 : 0,
          last_seen_at: now,
          last_visit_at: now,
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

  async function removeWithProof(endpoint: string, auth: string, now: number = Date.now()): Promise<RemoveResult> {
    return (await removeBatch([{ endpoint, auth, now }]))[0]!;
  }

  function removeBatch(items: readonly TimedRemoval[]): Promise<RemoveResult[]> {
    // Each row and its removal log go together (the Painel's "removed per day" counts the log).
    return writeTransaction(database, async (trx) => {
      const results: RemoveResult[] = [];
      const events: WebhookEvent[] = [];
      for (const item of items) results.push(await removeIn(trx, item, events));
      await enqueueWebhookEvents(trx, events, Math.max(...items.map((item) => item.now)));
      return results;
    });
  }

  async function removeIn(trx: Kysely<Schema>, { endpoint, auth, now }: TimedRemoval, events: WebhookEvent[]): Promise<RemoveResult> {
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
    events.push(subscriptionRemoved(existing.id, existing.personId, existing.siteId, "unsubscribed"));
    await recordConsentChangeIn(trx, existing.id, "unsubscribed", null, now);
    return "removed";
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

  return { register, registerBatch, removeWithProof, removeBatch, findByEndpoint, count, listAfter, identifyWithProof, forgetWithProof, changePeopleBatch, linkPerson, unlinkPerson };
}

/** Rows per multi-row insert: 17 parameters a subscription, far under both databases' limits. */
const INSERT_CHUNK = 500;

/** A new subscription's row, as `register` stores it. */
function newSubscriptionRow(input: RegisterSubscriptionInput<string>, now: number): Insertable<SubscriptionsTable> {
  return {
    endpoint: input.endpoint,
    p256dh: input.p256dh,
    auth: input.auth,
    user_agent: input.userAgent,
    time_zone: input.timeZone ?? null,
    browser: input.browser ?? null,
    platform: input.platform ?? null,
    declarative: input.declarative === true ? 1 : 0,
    created_at: now,
    updated_at: now,
    last_seen_at: now,
    last_visit_at: now,
    ...(input.siteId === undefined ? {} : { site_id: input.siteId }),
    vapid_key_id: input.vapidKeyId ?? null,
    ...(input.migrated === true ? { migrated_at: now } : {}),
  };
}

async function findIn(q: Kysely<Schema>, endpoint: string): Promise<Subscription | undefined> {
  const row = await q.selectFrom("subscriptions").selectAll().where("endpoint", "=", normalizeEndpoint(endpoint)).executeTakeFirst();
  return row === undefined ? undefined : toSubscription(row);
}

async function findByIdIn(q: Kysely<Schema>, id: number): Promise<Subscription | undefined> {
  const row = await q.selectFrom("subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
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
    personId: row.person_id,
    identifiedAt: row.identified_at === null ? null : Number(row.identified_at),
  };
}
