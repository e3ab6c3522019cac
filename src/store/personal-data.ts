import { sql, type Kysely, type Selectable } from "kysely";
import { subscriptionByProof } from "./subscription-proof.js";
import type { DatabaseHandle, Dialect } from "./database.js";
import type { Schema, SubscriptionsTable } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";

/**
 * Everything Sino keeps about one browser (LGPD Art. 18: access, portability), as the subscriber's
 * "Meus dados" and the operator's export give it. Times are epoch ms as stored; the routes present
 * them. The keys (p256dh, auth) are left out: they are the browser's secret, not information about
 * the person.
 */
export interface SubscriptionData {
  readonly subscription: {
    readonly id: number;
    readonly endpoint: string;
    readonly userAgent: string | null;
    readonly browser: string | null;
    readonly platform: string | null;
    readonly siteId: number;
    readonly siteOrigin: string | null;
    readonly createdAt: number;
    readonly updatedAt: number;
    readonly lastSeenAt: number;
    readonly identifiedAt: number | null;
    readonly timeZone: string | null;
    readonly quietHours: string | null;
    readonly declarative: boolean;
    readonly lastShownAt: number | null;
    readonly lastVisitAt: number | null;
    readonly lastClickedAt: number | null;
    readonly reengagedAt: number | null;
    readonly warnedAt: number | null;
    readonly vapidMismatchAt: number | null;
    readonly vapidKeyId: number | null;
  };
  readonly userId: string | null;
  /** Every channel membership stored, archived channels included. */
  readonly channels: readonly string[];
  /** Visitor tags (the page's word on this browser). */
  readonly tags: ReadonlyArray<{ key: string; value: string | null; updatedAt: number }>;
  readonly consent: ConsentData | null;
  readonly consentChanges: ReadonlyArray<{ kind: string; value: unknown; at: number }>;
  /** The service worker's reports: shown / clicked / closed. */
  readonly events: ReadonlyArray<{ notificationId: number; type: string; action: string | null; at: number }>;
  /** What became of each push sent to it. */
  readonly deliveries: ReadonlyArray<{ notificationId: number; outcome: string; reason: string | null; attempts: number; at: number }>;
  /** Pushes waiting to be tried again, and segment sends it is a target of, while they last. */
  readonly pending: ReadonlyArray<{ notificationId: number; kind: "retry" | "target" }>;
}

export interface ConsentData {
  readonly givenAt: number;
  readonly siteId: number | null;
  readonly pageOrigin: string | null;
  readonly source: string;
  readonly text: string;
  readonly catalogueVersion: string;
  readonly channels: readonly string[];
  readonly endedAt: number | null;
  readonly endReason: string | null;
}

/** Everything about a person of the host app: their trusted tags, sends addressed to them, their browsers. */
export interface PersonData {
  readonly userId: string;
  readonly tags: ReadonlyArray<{ key: string; value: string | null; updatedAt: number }>;
  /** `users` sends that named them, with the placeholder values given for them. */
  readonly sends: ReadonlyArray<{ notificationId: number; data: unknown }>;
  /** Deliveries recorded against the person on browsers no longer theirs or gone. */
  readonly otherDeliveries: ReadonlyArray<{ notificationId: number; subscriptionId: number; outcome: string; at: number }>;
  readonly subscriptions: readonly SubscriptionData[];
}

/** How many rows an erasure removes (or would remove), per kind: the confirmation's counts. */
export interface ErasureCounts {
  subscriptions: number;
  channels: number;
  tags: number;
  events: number;
  deliveries: number;
  pending: number;
  consentRecords: number;
  consentChanges: number;
  personTags: number;
  sends: number;
  webhookMessages: number;
}

export type ProofOutcome<T> = { outcome: "ok"; value: T } | { outcome: "not_found" } | { outcome: "auth_mismatch" };

/** Who asked for an erasure: logged with it (never whose data it was). */
export type ErasureRequester = "subscriber" | "operator";

export interface PersonalDataStore {
  exportSubscription(id: number): Promise<SubscriptionData | undefined>;
  exportPerson(userId: string): Promise<PersonData | undefined>;
  /** The browser's own data, with proof of possession (endpoint + auth secret). */
  exportWithProof(proof: { endpoint: string; auth: string }): Promise<ProofOutcome<SubscriptionData>>;
  /** Erases one subscription and everything kept about it, in one transaction; logs the erasure. */
  eraseSubscription(id: number, by: ErasureRequester, now: number): Promise<ErasureCounts | undefined>;
  /** Erases a person: every subscription of theirs, their tags, their sends' personal values. */
  erasePerson(userId: string, by: ErasureRequester, now: number): Promise<ErasureCounts | undefined>;
  eraseWithProof(proof: { endpoint: string; auth: string }, now: number): Promise<ProofOutcome<ErasureCounts>>;
}

export function createPersonalDataStore(database: DatabaseHandle): PersonalDataStore {
  const { db } = database;

  async function exportWithProof(proof: { endpoint: string; auth: string }): Promise<ProofOutcome<SubscriptionData>> {
    const found = await subscriptionByProof(db, proof);
    if (typeof found === "string") return { outcome: found };
    const value = await readSubscriptionData(db, found.id);
    return value === undefined ? { outcome: "not_found" } : { outcome: "ok", value };
  }

  function eraseSubscription(id: number, by: ErasureRequester, now: number): Promise<ErasureCounts | undefined> {
    return writeTransaction(database, async (trx) => {
      const row = await trx.selectFrom("subscriptions").select(["id", "person_id"]).where("id", "=", id).executeTakeFirst();
      if (row === undefined) return undefined;
      const counts = emptyCounts();
      await eraseSubscriptionsIn(trx, database.dialect, [id], by, now, counts);
      await logErasure(trx, by, "subscription", counts, now);
      return counts;
    });
  }

  function erasePerson(userId: string, by: ErasureRequester, now: number): Promise<ErasureCounts | undefined> {
    return writeTransaction(database, async (trx) => {
      const counts = await erasePersonIn(trx, database.dialect, userId, by, now);
      if (counts === undefined) return undefined;
      await logErasure(trx, by, "person", counts, now);
      return counts;
    });
  }

  async function eraseWithProof(proof: { endpoint: string; auth: string }, now: number): Promise<ProofOutcome<ErasureCounts>> {
    return writeTransaction(database, async (trx): Promise<ProofOutcome<ErasureCounts>> => {
      const found = await subscriptionByProof(trx, proof);
      if (typeof found === "string") return { outcome: found };
      const counts = emptyCounts();
      await eraseSubscriptionsIn(trx, database.dialect, [found.id], "subscriber", now, counts);
      await logErasure(trx, "subscriber", "subscription", counts, now);
      return { outcome: "ok", value: counts };
    });
  }

  return {
    exportSubscription: (id) => readSubscriptionData(db, id),
    exportPerson: (userId) => readPersonData(db, userId),
    exportWithProof,
    eraseSubscription,
    erasePerson,
    eraseWithProof,
  };
}

/** The counts an erasure of this export would remove (the Painel's and the CLI's confirmation). */
export function erasureCountsOf(data: SubscriptionData | PersonData): ErasureCounts {
  const counts = emptyCounts();
  const subscriptions = "subscriptions" in data ? data.subscriptions : [data];
  for (const s of subscriptions) {
    counts.subscriptions += 1;
    counts.channels += s.channels.length;
    counts.tags += s.tags.length;
    counts.events += s.events.length;
    counts.deliveries += s.deliveries.length;
    counts.pending += s.pending.length;
    counts.consentRecords += s.consent === null ? 0 : 1;
    counts.consentChanges += s.consentChanges.length;
  }
  if ("subscriptions" in data) {
    counts.personTags = data.tags.length;
    counts.sends = data.sends.length;
    counts.deliveries += data.otherDeliveries.length;
  }
  return counts;
}

function emptyCounts(): ErasureCounts {
  return { subscriptions: 0, channels: 0, tags: 0, events: 0, deliveries: 0, pending: 0, consentRecords: 0, consentChanges: 0, personTags: 0, sends: 0, webhookMessages: 0 };
}

async function logErasure(trx: Kysely<Schema>, by: ErasureRequester, scope: "subscription" | "person", counts: ErasureCounts, now: number): Promise<void> {
  await trx.insertInto("data_erasures").values({ erased_at: now, requested_by: by, scope, rows: JSON.stringify(counts) }).execute();
}

const n = (value: number | string | bigint | null): number | null => (value === null ? null : Number(value));

async function readSubscriptionData(q: Kysely<Schema>, id: number): Promise<SubscriptionData | undefined> {
  const row = await q
    .selectFrom("subscriptions")
    .leftJoin("sites", "sites.id", "subscriptions.site_id")
    .selectAll("subscriptions")
    .select("sites.origin as site_origin")
    .where("subscriptions.id", "=", id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const [channels, tags, consent, changes, events, deliveries, retries, targets] = await Promise.all([
    q.selectFrom("subscription_channels").innerJoin("channels", "channels.id", "subscription_channels.channel_id").select("channels.slug").where("subscription_id", "=", id).orderBy("channels.slug").execute(),
    q.selectFrom("subscription_tags").select(["key", "value", "updated_at"]).where("subscription_id", "=", id).orderBy("key").execute(),
    q.selectFrom("consent_records").selectAll().where("subscription_id", "=", id).executeTakeFirst(),
    q.selectFrom("consent_changes").selectAll().where("subscription_id", "=", id).orderBy("id").execute(),
    q.selectFrom("notification_events").selectAll().where("subscription_id", "=", id).orderBy("created_at").orderBy("notification_id").orderBy("type").execute(),
    q.selectFrom("notification_recipients").selectAll().where("subscription_id", "=", id).orderBy("notification_id").execute(),
    q.selectFrom("delivery_retries").select("notification_id").where("subscription_id", "=", id).orderBy("notification_id").execute(),
    q.selectFrom("notification_targets").select("notification_id").where("subscription_id", "=", id).orderBy("notification_id").execute(),
  ]);
  return {
    subscription: presentRow(row, row.site_origin),
    userId: row.person_id,
    channels: channels.map((c) => c.slug),
    tags: tags.map((t) => ({ key: t.key, value: t.value, updatedAt: Number(t.updated_at) })),
    consent:
      consent === undefined
        ? null
        : {
            givenAt: Number(consent.given_at),
            siteId: n(consent.site_id),
            pageOrigin: consent.page_origin,
            source: consent.source,
            text: consent.text,
            catalogueVersion: consent.catalogue_version,
            channels: JSON.parse(consent.channels) as string[],
            endedAt: n(consent.ended_at),
            endReason: consent.end_reason,
          },
    consentChanges: changes.map((c) => ({ kind: c.kind, value: c.value === null ? null : (JSON.parse(c.value) as unknown), at: Number(c.created_at) })),
    events: events.map((e) => ({ notificationId: Number(e.notification_id), type: e.type, action: e.action, at: Number(e.created_at) })),
    deliveries: deliveries.map((d) => ({ notificationId: Number(d.notification_id), outcome: d.outcome, reason: d.reason, attempts: Number(d.attempts), at: Number(d.updated_at) })),
    pending: [
      ...retries.map((r) => ({ notificationId: Number(r.notification_id), kind: "retry" as const })),
      ...targets.map((t) => ({ notificationId: Number(t.notification_id), kind: "target" as const })),
    ],
  };
}

function presentRow(row: Selectable<SubscriptionsTable>, siteOrigin: string | null): SubscriptionData["subscription"] {
  return {
    id: Number(row.id),
    endpoint: row.endpoint,
    userAgent: row.user_agent,
    browser: row.browser,
    platform: row.platform,
    siteId: Number(row.site_id),
    siteOrigin,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastSeenAt: Number(row.last_seen_at),
    identifiedAt: n(row.identified_at),
    timeZone: row.time_zone,
    quietHours: row.quiet_hours,
    declarative: Number(row.declarative) === 1,
    lastShownAt: n(row.last_shown_at),
    lastVisitAt: n(row.last_visit_at),
    lastClickedAt: n(row.last_clicked_at),
    reengagedAt: n(row.reengaged_at),
    warnedAt: n(row.warned_at),
    vapidMismatchAt: n(row.vapid_mismatch_at),
    vapidKeyId: n(row.vapid_key_id),
  };
}

async function readPersonData(q: Kysely<Schema>, userId: string): Promise<PersonData | undefined> {
  const [ids, tags, sends, recipients] = await Promise.all([
    q.selectFrom("subscriptions").select("id").where("person_id", "=", userId).orderBy("id").execute(),
    q.selectFrom("person_tags").select(["key", "value", "updated_at"]).where("person_id", "=", userId).orderBy("key").execute(),
    q.selectFrom("notification_people").select(["notification_id", "data"]).where("person_id", "=", userId).orderBy("notification_id").execute(),
    q.selectFrom("notification_recipients").select(["notification_id", "subscription_id", "outcome", "updated_at"]).where("person_id", "=", userId).orderBy("notification_id").orderBy("subscription_id").execute(),
  ]);
  if (ids.length === 0 && tags.length === 0 && sends.length === 0 && recipients.length === 0) return undefined;
  const subscriptions: SubscriptionData[] = [];
  for (const { id } of ids) {
    const data = await readSubscriptionData(q, Number(id));
    if (data !== undefined) subscriptions.push(data);
  }
  const own = new Set(subscriptions.map((s) => s.subscription.id));
  return {
    userId,
    tags: tags.map((t) => ({ key: t.key, value: t.value, updatedAt: Number(t.updated_at) })),
    sends: sends.map((s) => ({ notificationId: Number(s.notification_id), data: s.data === null ? null : (JSON.parse(s.data) as unknown) })),
    otherDeliveries: recipients
      .filter((r) => !own.has(Number(r.subscription_id)))
      .map((r) => ({ notificationId: Number(r.notification_id), subscriptionId: Number(r.subscription_id), outcome: r.outcome, at: Number(r.updated_at) })),
    subscriptions,
  };
}

/**
 * Deletes the outbox's webhook messages whose JSON holds `fragment` (a `"subscriptionId":"12"` or a
 * `"userId":"…"`), compared exactly: `LIKE` is case-insensitive on SQLite and would take another
 * person's messages along.
 */
async function deleteWebhookMessagesWith(trx: Kysely<Schema>, dialect: Dialect, fragment: string): Promise<number> {
  const found = dialect === "postgres" ? sql<boolean>`strpos(payload, ${fragment}) > 0` : sql<boolean>`instr(payload, ${fragment}) > 0`;
  return Number((await trx.deleteFrom("webhook_messages").where(found).executeTakeFirst()).numDeletedRows);
}

/**
 * Deletes the subscriptions and every row that names them. Each table is listed here on purpose
 * (personal-data.test.ts checks every table with a subscription or person column): a table added
 * later must be added here too. The removal is logged like an operator's removal (for the
 * Painel's "removed per day"), which holds no personal data.
 */
async function eraseSubscriptionsIn(trx: Kysely<Schema>, dialect: Dialect, ids: readonly number[], by: ErasureRequester, now: number, counts: ErasureCounts): Promise<void> {
  for (const id of ids) {
    const row = await trx.selectFrom("subscriptions").select(["created_at", "site_id"]).where("id", "=", id).executeTakeFirst();
    if (row === undefined) continue;
    const del = async (table: "subscription_channels" | "subscription_tags" | "notification_events" | "notification_recipients" | "delivery_retries" | "notification_targets" | "consent_records" | "consent_changes") =>
      Number((await trx.deleteFrom(table).where("subscription_id", "=", id).executeTakeFirst()).numDeletedRows);
    counts.channels += await del("subscription_channels");
    counts.tags += await del("subscription_tags");
    counts.events += await del("notification_events");
    counts.deliveries += await del("notification_recipients");
    counts.pending += (await del("delivery_retries")) + (await del("notification_targets"));
    counts.consentRecords += await del("consent_records");
    counts.consentChanges += await del("consent_changes");
    counts.webhookMessages += await deleteWebhookMessagesWith(trx, dialect, `"subscriptionId":${JSON.stringify(String(id))}`);
    await trx.deleteFrom("subscriptions").where("id", "=", id).execute();
    counts.subscriptions += 1;
    await trx
      .insertInto("subscription_removals")
      .values({ removed_at: now, reason: by === "subscriber" ? "unsubscribed" : "operator", subscription_created_at: Number(row.created_at), site_id: Number(row.site_id) })
      .execute();
  }
}

async function erasePersonIn(trx: Kysely<Schema>, dialect: Dialect, userId: string, by: ErasureRequester, now: number): Promise<ErasureCounts | undefined> {
  const ids = (await trx.selectFrom("subscriptions").select("id").where("person_id", "=", userId).execute()).map((r) => Number(r.id));
  const counts = emptyCounts();
  await eraseSubscriptionsIn(trx, dialect, ids, by, now, counts);
  counts.personTags += Number((await trx.deleteFrom("person_tags").where("person_id", "=", userId).executeTakeFirst()).numDeletedRows);
  counts.sends += Number((await trx.deleteFrom("notification_people").where("person_id", "=", userId).executeTakeFirst()).numDeletedRows);
  counts.deliveries += Number((await trx.deleteFrom("notification_recipients").where("person_id", "=", userId).executeTakeFirst()).numDeletedRows);
  counts.webhookMessages += await deleteWebhookMessagesWith(trx, dialect, `"userId":${JSON.stringify(userId)}`);
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  return total === 0 ? undefined : counts;
}
