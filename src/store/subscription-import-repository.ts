import type { Kysely } from "kysely";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import { foldForSearch } from "../shared/text/search-fold.js";
import { constantTimeEqual } from "./constant-time.js";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";
import { subscriptionCreated } from "./subscription-events.js";
import { enqueueWebhookEvents } from "./webhook-outbox.js";
import { writeTransaction } from "./write-transaction.js";

/**
 * One subscription of an import file, already checked as a browser's registration is (endpoint
 * policy, keys) and in canonical form: the endpoint in its one spelling, keys base64url.
 */
export interface ImportRow {
  /** The row's line in the file, for the report. */
  readonly line: number;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  /** The person (the host app's user id) it belongs to; null: anonymous. */
  readonly personId: string | null;
  /** Channel ids it receives (the default channels, as a new browser's, when the file names none). */
  readonly channelIds: readonly number[];
  readonly timeZone: string | null;
  /** When the old sender says it was made (epoch ms); null: now. */
  readonly createdAt: number | null;
  /** The old sender's last visit (epoch ms); null: the import itself counts as one. */
  readonly lastVisitAt: number | null;
}

/** Where the rows go: the site, and the VAPID key its subscriptions are made with (null: Sino's default). */
export interface ImportTarget {
  readonly siteId: number;
  readonly vapidKeyId: number | null;
}

/**
 * Per row, in order: `created`; `existing` (the endpoint is known with the same auth secret, or
 * came earlier in the file: left as it was, never overwritten); `auth_mismatch` (known with another
 * auth secret: a registration would be refused the same way); `over_cap` (the site holds its
 * maximum of subscriptions).
 */
export type ImportOutcome = "created" | "existing" | "auth_mismatch" | "over_cap";

export interface ImportBatchOptions {
  readonly now: number;
  /** Most new subscriptions this batch may create (the site's cap); undefined: no bound. */
  readonly maxNew?: number | undefined;
  /** Check only: which rows would be created, nothing written. */
  readonly dryRun?: boolean;
}

export interface SubscriptionImportRepository {
  /**
   * Stores one batch in ONE transaction, set-based (a handful of statements whatever its size):
   * each new row with its channels, person and webhook events, or nothing of it. Rows already
   * known are left untouched, so importing the same file twice stores nothing the second time.
   */
  importBatch(rows: readonly ImportRow[], target: ImportTarget, options: ImportBatchOptions): Promise<ImportOutcome[]>;
  /** Active channels by slug, and which of them are default (read once per import). */
  activeChannels(): Promise<{ bySlug: Map<string, number>; defaults: number[] }>;
}

/** Rows per INSERT of channel links (2 parameters each: far under both dialects' limits). */
const LINK_CHUNK = 1000;

export function createSubscriptionImportRepository(database: DatabaseHandle): SubscriptionImportRepository {
  async function activeChannels(): Promise<{ bySlug: Map<string, number>; defaults: number[] }> {
    const rows = await database.db.selectFrom("channels").select(["id", "slug", "is_default"]).where("archived", "=", 0).execute();
    return {
      bySlug: new Map(rows.map((row) => [row.slug, Number(row.id)])),
      defaults: rows.filter((row) => Number(row.is_default) === 1).map((row) => Number(row.id)),
    };
  }

  async function importBatch(rows: readonly ImportRow[], target: ImportTarget, options: ImportBatchOptions): Promise<ImportOutcome[]> {
    if (rows.length === 0) return [];
    if (options.dryRun === true) return classify(database.db, rows, options, async () => new Map());
    return writeTransaction(database, async (trx) => {
      const events: WebhookEvent[] = [];
      const outcomes = await classify(trx, rows, options, (fresh) => insertRows(trx, fresh, target, options.now, events));
      await enqueueWebhookEvents(trx, events, options.now);
      return outcomes;
    });
  }

  return { importBatch, activeChannels };
}

/**
 * Decides each row's outcome: the first row of an endpoint is compared with what is stored, later
 * ones of the batch with that first one. `insert` stores the rows found new and answers which of
 * them it stored (a browser registering the same endpoint meanwhile wins: that row is `existing`).
 */
async function classify(
  q: Kysely<Schema>,
  rows: readonly ImportRow[],
  options: ImportBatchOptions,
  insert: (fresh: readonly ImportRow[]) => Promise<Map<string, number>>,
): Promise<ImportOutcome[]> {
  const first = new Map<string, ImportRow>();
  for (const row of rows) if (!first.has(row.endpoint)) first.set(row.endpoint, row);
  const stored = await storedAuth(q, [...first.keys()]);
  const fresh: ImportRow[] = [];
  let room = options.maxNew ?? Number.POSITIVE_INFINITY;
  const overCap = new Set<string>();
  for (const row of first.values()) {
    if (stored.has(row.endpoint)) continue;
    if (room <= 0) overCap.add(row.endpoint);
    else {
      fresh.push(row);
      room -= 1;
    }
  }
  const inserted = options.dryRun === true ? new Map(fresh.map((row) => [row.endpoint, 0])) : await insert(fresh);
  // Rows a concurrent registration stored between our read and our insert.
  const raced = fresh.filter((row) => !inserted.has(row.endpoint)).map((row) => row.endpoint);
  if (raced.length > 0) for (const [endpoint, auth] of await storedAuth(q, raced)) stored.set(endpoint, auth);

  return rows.map((row): ImportOutcome => {
    const head = first.get(row.endpoint)!;
    if (head !== row) return constantTimeEqual(head.auth, row.auth) ? "existing" : "auth_mismatch";
    if (overCap.has(row.endpoint)) return "over_cap";
    if (inserted.has(row.endpoint)) return "created";
    const auth = stored.get(row.endpoint);
    return auth === undefined || constantTimeEqual(auth, row.auth) ? "existing" : "auth_mismatch";
  });
}

async function storedAuth(q: Kysely<Schema>, endpoints: readonly string[]): Promise<Map<string, string>> {
  if (endpoints.length === 0) return new Map();
  const found = await q.selectFrom("subscriptions").select(["endpoint", "auth"]).where("endpoint", "in", endpoints).execute();
  return new Map(found.map((row) => [row.endpoint, row.auth]));
}

/** One INSERT for the rows, one per chunk of channel links; returns endpoint → new id. */
async function insertRows(trx: Kysely<Schema>, rows: readonly ImportRow[], target: ImportTarget, now: number, events: WebhookEvent[]): Promise<Map<string, number>> {
  if (rows.length === 0) return new Map();
  const returned = await trx
    .insertInto("subscriptions")
    .values(
      rows.map((row) => ({
        endpoint: row.endpoint,
        p256dh: row.p256dh,
        auth: row.auth,
        user_agent: null,
        time_zone: row.timeZone,
        created_at: row.createdAt ?? now,
        updated_at: now,
        last_seen_at: now,
        // The sleeping clock runs from the old sender's last visit, else from the import: an
        // imported audience is not asleep on day one because its rows are years old.
        last_visit_at: row.lastVisitAt ?? now,
        site_id: target.siteId,
        vapid_key_id: target.vapidKeyId,
        person_id: row.personId,
        person_key: row.personId === null ? null : foldForSearch(row.personId),
        identified_at: row.personId === null ? null : now,
      })),
    )
    .onConflict((oc) => oc.column("endpoint").doNothing())
    .returning(["id", "endpoint"])
    .execute();
  const ids = new Map(returned.map((row) => [row.endpoint, Number(row.id)]));
  const links: Array<{ subscription_id: number; channel_id: number }> = [];
  for (const row of rows) {
    const id = ids.get(row.endpoint);
    if (id === undefined) continue;
    for (const channel of new Set(row.channelIds)) links.push({ subscription_id: id, channel_id: channel });
    events.push(subscriptionCreated(id, row.personId, target.siteId));
    if (row.personId !== null) events.push({ type: "person.identified", data: { subscriptionId: String(id), userId: row.personId, siteId: String(target.siteId) } });
  }
  for (let i = 0; i < links.length; i += LINK_CHUNK) await trx.insertInto("subscription_channels").values(links.slice(i, i + LINK_CHUNK)).execute();
  return ids;
}
