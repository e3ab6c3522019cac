import { sql, type Kysely } from "kysely";
import { SEGMENT_LIMITS, type SegmentNode, type SegmentTagKinds } from "../shared/segments/tree.js";
import { toCount } from "./count.js";
import type { DatabaseHandle, Dialect } from "./database.js";
import type { Schema } from "./schema.js";
import { notFlagged } from "./audience-filter.js";
import { resolveChannelIds, segmentFilter } from "./segment-sql.js";

/** A tag as the store holds it: its text (null for a key-only tag) and, when it reads as one, its number and moment. */
export interface TagFact {
  readonly value: string | null;
  readonly num: number | null;
  readonly time: number | null;
}

/** What a segment can test on one subscription: the explain view evaluates the tree on these. */
export interface SegmentFacts {
  readonly id: number;
  readonly personId: string | null;
  readonly siteId: number;
  readonly channelIds: ReadonlySet<number>;
  readonly timeZone: string | null;
  readonly browser: string | null;
  readonly platform: string | null;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly lastClickedAt: number | null;
  /** Flagged for a VAPID key mismatch: counts and sends leave it out (notFlagged). */
  readonly flagged: boolean;
  /** The person's tags (none when the subscription is anonymous). */
  readonly trustedTags: ReadonlyMap<string, TagFact>;
  /** The subscription's own, set by the page. */
  readonly visitorTags: ReadonlyMap<string, TagFact>;
}

export interface SegmentCount {
  /** Subscriptions that match (never those flagged for a VAPID key mismatch, which no notification reaches). */
  readonly subscriptions: number;
  /** Distinct people among them; anonymous subscriptions count in `subscriptions` only. */
  readonly people: number;
}

/** A count that ran past SEGMENT_LIMITS.statementTimeoutMs on PostgreSQL; the API answers `segment_timeout`. */
export class SegmentTimeoutError extends Error {
  override readonly name = "SegmentTimeoutError";
}

export function isSegmentTimeout(error: unknown): error is SegmentTimeoutError {
  return error instanceof SegmentTimeoutError;
}

export interface SegmentsRepository {
  /** Channel slug → id of the channels the tree names (slugs of no channel are left out). */
  channelIds(tree: SegmentNode): Promise<Map<string, number>>;
  /**
   * How many subscriptions and people match, at `now`. PostgreSQL stops the statement after
   * SEGMENT_LIMITS.statementTimeoutMs (SegmentTimeoutError). `channelIds` defaults to the
   * channels as they are now.
   */
  countSegment(tree: SegmentNode, tagKinds: SegmentTagKinds, now: number, channelIds?: ReadonlyMap<string, number>): Promise<SegmentCount>;
  /** The facts of these subscriptions (those that exist), in id order. */
  facts(subscriptionIds: readonly number[]): Promise<SegmentFacts[]>;
  /** The ids of a person's subscriptions, in id order. */
  subscriptionIdsOf(personId: string): Promise<number[]>;
  /** A saved segment's stored tree (JSON, as written) and tag kinds; undefined when there is none. */
  savedExpression(id: number): Promise<{ tree: unknown; tagKinds: SegmentTagKinds } | undefined>;
}

/** PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout. */
const QUERY_CANCELED = "57014";

export interface SegmentsRepositoryOptions {
  /** PostgreSQL: a count's statement timeout (tests shorten it); default SEGMENT_LIMITS.statementTimeoutMs. */
  readonly statementTimeoutMs?: number;
}

/**
 * The count's statement: subscriptions (not flagged) and distinct people the tree matches.
 * Conditions as sets (see src/store/segment-sql.ts).
 *
 * PostgreSQL counts distinct people by sorting their ids, in the database's collation unless told
 * otherwise (a libc locale such as C.UTF-8 compares with strcoll and sorts without abbreviated
 * keys). In byte order (`collate "C"`) the parallel count of 1,000,000 subscriptions took 0.90 of
 * the time (685 against 760 ms, median of 7 back to back). The number is the same: equality in a
 * deterministic collation is byte equality (segments-repository.test.ts checks ids that differ
 * only in case or accents).
 */
export function countQuery(executor: Kysely<Schema>, dialect: Dialect, tree: SegmentNode, tagKinds: SegmentTagKinds, now: number, channelIds: ReadonlyMap<string, number>) {
  const person = dialect === "postgres" ? sql`${sql.ref("subscriptions.person_id")} collate "C"` : sql.ref("subscriptions.person_id");
  return executor
    .selectFrom("subscriptions")
    .select((eb) => [eb.fn.countAll().as("subscriptions"), eb.fn.count(person).distinct().as("people")])
    .where(notFlagged())
    .where(segmentFilter(tree, { tagKinds, now, channelIds }));
}

/** PostgreSQL, inside the count's transaction: the settings its plan is made and run with. */
export async function applyCountSettings(trx: Kysely<Schema>): Promise<void> {
  // The planner's cost for a count over a million subscriptions passes jit_above_cost, and
  // compiling the plan's expressions took about 1 s of an 8.6 s count (1,000,000 subscriptions ×
  // 5 tags, 4 conditions) that JIT then never paid back.
  await sql`set local jit = off`.execute(trx);
  // A million subscriptions' sets: hash tables that fit in memory rather than 8 batches spilled
  // to disk (the default 4 MB).
  await sql`set local work_mem = '64MB'`.execute(trx);
  // Parallel hash joins (workers share each set's hash table; migration 0013's statistics keep
  // the planner from nested loops): counting 1,000,000 subscriptions on 2 cores, 770 ms against
  // the serial plan's 1,093 (0.70, median of 7 back to back; 0.54 with the machine loaded). Set here rather than left to the database's setting, which test
  // databases turn off (test/support/global-setup.ts) and a server may have changed: the count's
  // speed should not depend on it. Small tables (under min_parallel_table_scan_size) never get
  // workers whatever this says.
  await sql`set local max_parallel_workers_per_gather = 2`.execute(trx);
}

export function createSegmentsRepository(database: DatabaseHandle, options: SegmentsRepositoryOptions = {}): SegmentsRepository {
  const { db, dialect } = database;
  const statementTimeoutMs = options.statementTimeoutMs ?? SEGMENT_LIMITS.statementTimeoutMs;

  async function countSegment(tree: SegmentNode, tagKinds: SegmentTagKinds, now: number, channelIds?: ReadonlyMap<string, number>): Promise<SegmentCount> {
    const ids = channelIds ?? (await resolveChannelIds(db, tree));
    const query = (executor: typeof db) => countQuery(executor, dialect, tree, tagKinds, now, ids).executeTakeFirstOrThrow();
    let row: Awaited<ReturnType<typeof query>>;
    if (dialect === "postgres") {
      try {
        row = await db.transaction().execute(async (trx) => {
          await sql`set local statement_timeout = ${sql.lit(Math.max(1, Math.floor(statementTimeoutMs)))}`.execute(trx);
          await applyCountSettings(trx);
          return query(trx);
        });
      } catch (error) {
        if (typeof error === "object" && error !== null && "code" in error && error.code === QUERY_CANCELED) throw new SegmentTimeoutError("segment count timed out", { cause: error });
        throw error;
      }
    } else {
      row = await query(db);
    }
    return { subscriptions: toCount(row.subscriptions), people: toCount(row.people) };
  }

  async function facts(subscriptionIds: readonly number[]): Promise<SegmentFacts[]> {
    if (subscriptionIds.length === 0) return [];
    const rows = await db
      .selectFrom("subscriptions")
      .select(["id", "person_id", "site_id", "time_zone", "browser", "platform", "created_at", "last_seen_at", "last_clicked_at", "vapid_mismatch_at"])
      .where("id", "in", [...subscriptionIds])
      .orderBy("id")
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((row) => Number(row.id));
    const people = [...new Set(rows.flatMap((row) => (row.person_id === null ? [] : [row.person_id])))];
    const [channels, visitor, trusted] = await Promise.all([
      db.selectFrom("subscription_channels").select(["subscription_id", "channel_id"]).where("subscription_id", "in", ids).execute(),
      db.selectFrom("subscription_tags").select(["subscription_id as owner", "key", "value", "num_value", "time_value"]).where("subscription_id", "in", ids).execute(),
      people.length === 0 ? [] : db.selectFrom("person_tags").select(["person_id as owner", "key", "value", "num_value", "time_value"]).where("person_id", "in", people).execute(),
    ]);
    const tagsBy = <K>(tagRows: readonly { owner: K; key: string; value: string | null; num_value: number | string | null; time_value: number | string | null }[]) => {
      const byOwner = new Map<string, Map<string, TagFact>>();
      for (const tag of tagRows) {
        const owner = String(tag.owner);
        const tags = byOwner.get(owner) ?? new Map<string, TagFact>();
        tags.set(tag.key, { value: tag.value, num: tag.num_value === null ? null : Number(tag.num_value), time: tag.time_value === null ? null : Number(tag.time_value) });
        byOwner.set(owner, tags);
      }
      return byOwner;
    };
    const visitorBy = tagsBy(visitor);
    const trustedBy = tagsBy(trusted);
    return rows.map((row) => {
      const id = Number(row.id);
      return {
        id,
        personId: row.person_id,
        siteId: Number(row.site_id),
        channelIds: new Set(channels.filter((c) => Number(c.subscription_id) === id).map((c) => Number(c.channel_id))),
        timeZone: row.time_zone,
        browser: row.browser,
        platform: row.platform,
        createdAt: Number(row.created_at),
        lastSeenAt: Number(row.last_seen_at),
        lastClickedAt: row.last_clicked_at === null ? null : Number(row.last_clicked_at),
        flagged: row.vapid_mismatch_at !== null,
        trustedTags: (row.person_id === null ? undefined : trustedBy.get(row.person_id)) ?? new Map(),
        visitorTags: visitorBy.get(String(id)) ?? new Map(),
      };
    });
  }

  async function subscriptionIdsOf(personId: string): Promise<number[]> {
    const rows = await db.selectFrom("subscriptions").select("id").where("person_id", "=", personId).orderBy("id").execute();
    return rows.map((row) => Number(row.id));
  }

  async function savedExpression(id: number): Promise<{ tree: unknown; tagKinds: SegmentTagKinds } | undefined> {
    const row = await db.selectFrom("segments").select(["expression", "tag_kinds"]).where("id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : { tree: JSON.parse(row.expression) as unknown, tagKinds: row.tag_kinds as SegmentTagKinds };
  }

  return { channelIds: (tree) => resolveChannelIds(db, tree), countSegment, facts, subscriptionIdsOf, savedExpression };
}
