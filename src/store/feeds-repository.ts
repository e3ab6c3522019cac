import type { Kysely, Selectable } from "kysely";
import type { DatabaseHandle } from "./database.js";
import { insertNotificationWithJobs, type CreateNotificationOptions, type NewNotification, type Notification } from "./notifications-repository.js";
import type { FeedItemStatus, FeedItemsTable, FeedMode, FeedsTable, Schema } from "./schema.js";
import { writeTransaction } from "./write-transaction.js";

export interface FeedRecord {
  readonly id: number;
  readonly url: string;
  readonly title: string | null;
  /** Null: everyone. */
  readonly channelId: number | null;
  readonly mode: FeedMode;
  readonly intervalSeconds: number;
  readonly enabled: boolean;
  /** The first poll has stored the items already there. */
  readonly primed: boolean;
  readonly nextPollAt: number;
  readonly polls: number;
  /** New items found after the first poll (sent, drafted, skipped or refused). */
  readonly itemsFound: number;
  readonly errors: number;
  readonly lastPolledAt: number | null;
  readonly lastSuccessAt: number | null;
  readonly lastError: string | null;
  readonly lastErrorAt: number | null;
  /** Drafts waiting for an operator. */
  readonly pending: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewFeed {
  readonly url: string;
  readonly channelId: number | null;
  readonly mode: FeedMode;
  readonly intervalSeconds: number;
}

export interface FeedPatch {
  readonly channelId?: number | null;
  readonly mode?: FeedMode;
  readonly intervalSeconds?: number;
  readonly enabled?: boolean;
}

/** A feed a worker holds under a lease while it polls it. */
export interface ClaimedFeed {
  readonly id: number;
  readonly url: string;
  readonly channelId: number | null;
  readonly mode: FeedMode;
  readonly intervalSeconds: number;
  readonly primed: boolean;
  readonly etag: string | null;
  readonly lastModified: string | null;
}

export interface FeedLease {
  readonly owner: string;
  readonly now: number;
  readonly leaseMs: number;
}

/** One item of a feed as the poll found it. */
export interface FeedItemInput {
  readonly key: string;
  readonly title: string;
  readonly summary: string | null;
  readonly link: string | null;
  readonly image: string | null;
}

export interface FeedItemRecord extends FeedItemInput {
  readonly id: number;
  readonly feedId: number;
  readonly status: FeedItemStatus;
  readonly reason: string | null;
  readonly notificationId: number | null;
  readonly createdAt: number;
  readonly decidedAt: number | null;
}

/** How a new item is published: the send to store with it, or why it cannot be one. */
export type ItemPublication =
  | { readonly kind: "send"; readonly notification: NewNotification; readonly options: CreateNotificationOptions }
  | { readonly kind: "draft" }
  | { readonly kind: "skip" }
  | { readonly kind: "refuse"; readonly reason: string };

export type PublishOutcome =
  /** Another poll (this process or another) recorded the item first: nothing was done. */
  | { readonly kind: "known" }
  | { readonly kind: "sent"; readonly item: FeedItemRecord; readonly notification: Notification }
  | { readonly kind: "recorded"; readonly item: FeedItemRecord };

export type PollRecord =
  | {
      readonly ok: true;
      readonly notModified: boolean;
      readonly title?: string | null;
      readonly etag?: string | null;
      readonly lastModified?: string | null;
      readonly itemsFound: number;
      readonly primed: boolean;
      readonly nextPollAt: number;
    }
  | { readonly ok: false; readonly error: string; readonly nextPollAt: number };

export type DecideOutcome = { readonly kind: "sent"; readonly item: FeedItemRecord; readonly notification: Notification } | { readonly kind: "dismissed"; readonly item: FeedItemRecord } | "not_found" | "not_pending";

export interface FeedsRepository {
  /** Undefined when `max` feeds exist already. The first poll is due at once. */
  create(input: NewFeed, now: number, max: number): Promise<FeedRecord | undefined>;
  /** Oldest first. */
  list(): Promise<FeedRecord[]>;
  findById(id: number): Promise<FeedRecord | undefined>;
  update(id: number, patch: FeedPatch, now: number): Promise<FeedRecord | undefined>;
  /** Deletes the feed and its items (their sends stay). */
  remove(id: number): Promise<boolean>;
  /** Due, enabled feeds no other worker holds, leased to `lease.owner`. */
  claimDue(lease: FeedLease, limit: number): Promise<ClaimedFeed[]>;
  /**
   * The first poll: every item already in the feed is stored as `seen` (never sent), and the feed
   * is marked primed — one transaction, and only while the lease is ours. False: lease lost.
   */
  prime(feedId: number, owner: string, items: readonly FeedItemInput[], now: number): Promise<boolean>;
  /**
   * A new item: its row (unique per feed and key) and its send are written in ONE transaction, so
   * of two workers polling the same feed at once only one stores it (the other waits for the
   * first's commit, then finds the row: `known`), and a crash leaves both or neither.
   */
  publishItem(feedId: number, item: FeedItemInput, publication: (item: FeedItemInput) => ItemPublication, now: number): Promise<PublishOutcome>;
  /** Which of these item keys the feed already has (any status). */
  knownKeys(feedId: number, keys: readonly string[]): Promise<Set<string>>;
  /** Records the poll and gives the lease back; false when the lease was no longer ours. */
  recordPoll(feedId: number, owner: string, poll: PollRecord, now: number): Promise<boolean>;
  /** Makes the feed due now (an admin asked for a poll). */
  pollSoon(id: number, now: number): Promise<FeedRecord | undefined>;
  /** Newest first; `status` filters. */
  listItems(feedId: number, options: { status?: FeedItemStatus; page: number; pageSize: number }): Promise<{ items: FeedItemRecord[]; total: number }>;
  findItem(feedId: number, itemId: number): Promise<FeedItemRecord | undefined>;
  /** A pending draft becomes a notification (in one transaction with the status change) — at most once. */
  approve(feedId: number, itemId: number, notificationOf: (item: FeedItemRecord) => { notification: NewNotification; options: CreateNotificationOptions }, now: number): Promise<DecideOutcome>;
  dismiss(feedId: number, itemId: number, now: number): Promise<DecideOutcome>;
}

type FeedRow = Selectable<FeedsTable> & { pending?: number | string | null };

function toFeed(row: FeedRow): FeedRecord {
  const n = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    id: Number(row.id),
    url: row.url,
    title: row.title,
    channelId: n(row.channel_id),
    mode: row.mode,
    intervalSeconds: Number(row.interval_seconds),
    enabled: Number(row.enabled) === 1,
    primed: Number(row.primed) === 1,
    nextPollAt: Number(row.next_poll_at),
    polls: Number(row.polls),
    itemsFound: Number(row.items_found),
    errors: Number(row.errors),
    lastPolledAt: n(row.last_polled_at),
    lastSuccessAt: n(row.last_success_at),
    lastError: row.last_error,
    lastErrorAt: n(row.last_error_at),
    pending: Number(row.pending ?? 0),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function toItem(row: Selectable<FeedItemsTable>): FeedItemRecord {
  return {
    id: Number(row.id),
    feedId: Number(row.feed_id),
    key: row.item_key,
    title: row.title,
    summary: row.summary,
    link: row.link,
    image: row.image,
    status: row.status,
    reason: row.reason,
    notificationId: row.notification_id === null ? null : Number(row.notification_id),
    createdAt: Number(row.created_at),
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
  };
}

/** Keys and texts are bounded before they are stored: a feed is someone else's input. */
const KEY_MAX = 2_048;
const TEXT_MAX = 4_000;
const clip = (text: string | null, max: number) => (text === null ? null : text.slice(0, max));

export function createFeedsRepository(database: DatabaseHandle): FeedsRepository {
  const { db, dialect } = database;
  const postgres = dialect === "postgres";

  function feedsWithPending(executor: Kysely<Schema>) {
    return executor
      .selectFrom("feeds")
      .selectAll("feeds")
      .select((eb) =>
        eb
          .selectFrom("feed_items")
          .select(eb.fn.countAll<number>().as("n"))
          .whereRef("feed_items.feed_id", "=", "feeds.id")
          .where("feed_items.status", "=", "pending")
          .as("pending"),
      );
  }

  async function findById(id: number): Promise<FeedRecord | undefined> {
    const row = await feedsWithPending(db).where("feeds.id", "=", id).executeTakeFirst();
    return row === undefined ? undefined : toFeed(row);
  }

  async function findItem(feedId: number, itemId: number): Promise<FeedItemRecord | undefined> {
    const row = await db.selectFrom("feed_items").selectAll().where("id", "=", itemId).where("feed_id", "=", feedId).executeTakeFirst();
    return row === undefined ? undefined : toItem(row);
  }

  function itemValues(feedId: number, item: FeedItemInput, status: FeedItemStatus, now: number) {
    return {
      feed_id: feedId,
      item_key: item.key.slice(0, KEY_MAX),
      title: item.title.slice(0, TEXT_MAX),
      summary: clip(item.summary, TEXT_MAX),
      link: clip(item.link, KEY_MAX),
      image: clip(item.image, KEY_MAX),
      status,
      created_at: now,
    };
  }

  return {
    async create(input, now, max) {
      return writeTransaction(database, async (trx) => {
        const { n } = await trx.selectFrom("feeds").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
        if (Number(n) >= max) return undefined;
        const { id } = await trx
          .insertInto("feeds")
          .values({ url: input.url, channel_id: input.channelId, mode: input.mode, interval_seconds: input.intervalSeconds, next_poll_at: now, created_at: now, updated_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
        const row = await feedsWithPending(trx).where("feeds.id", "=", Number(id)).executeTakeFirstOrThrow();
        return toFeed(row);
      });
    },

    async list() {
      return (await feedsWithPending(db).orderBy("feeds.id").execute()).map(toFeed);
    },

    findById,

    async update(id, patch, now) {
      const changed = await db
        .updateTable("feeds")
        .set({
          updated_at: now,
          ...(patch.channelId === undefined ? {} : { channel_id: patch.channelId }),
          ...(patch.mode === undefined ? {} : { mode: patch.mode }),
          ...(patch.intervalSeconds === undefined ? {} : { interval_seconds: patch.intervalSeconds }),
          ...(patch.enabled === undefined ? {} : { enabled: patch.enabled ? 1 : 0 }),
        })
        .where("id", "=", id)
        .executeTakeFirst();
      return Number(changed.numUpdatedRows) === 0 ? undefined : findById(id);
    },

    async remove(id) {
      return writeTransaction(database, async (trx) => {
        await trx.deleteFrom("feed_items").where("feed_id", "=", id).execute();
        const removed = await trx.deleteFrom("feeds").where("id", "=", id).executeTakeFirst();
        return Number(removed.numDeletedRows) > 0;
      });
    },

    async claimDue(lease, limit) {
      if (limit <= 0) return [];
      // PostgreSQL: SKIP LOCKED lets several workers claim at once, each a different feed, as the
      // webhook outbox does; SQLite has one writer at a time.
      const rows = await db
        .updateTable("feeds")
        .set({ lease_owner: lease.owner, lease_until: lease.now + lease.leaseMs })
        .where("id", "in", (eb) =>
          eb
            .selectFrom("feeds")
            .select("id")
            .where("enabled", "=", 1)
            .where("next_poll_at", "<=", lease.now)
            .where("lease_until", "<=", lease.now)
            .orderBy("next_poll_at")
            .orderBy("id")
            .limit(limit)
            .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
        )
        .returning(["id", "url", "channel_id", "mode", "interval_seconds", "primed", "etag", "last_modified"])
        .execute();
      return rows.map((r) => ({
        id: Number(r.id),
        url: r.url,
        channelId: r.channel_id === null ? null : Number(r.channel_id),
        mode: r.mode,
        intervalSeconds: Number(r.interval_seconds),
        primed: Number(r.primed) === 1,
        etag: r.etag,
        lastModified: r.last_modified,
      }));
    },

    async prime(feedId, owner, items, now) {
      return writeTransaction(database, async (trx) => {
        const held = await trx.updateTable("feeds").set({ primed: 1 }).where("id", "=", feedId).where("lease_owner", "=", owner).executeTakeFirst();
        if (Number(held.numUpdatedRows) === 0) return false;
        const unique = [...new Map(items.map((item) => [item.key, item])).values()];
        for (let i = 0; i < unique.length; i += 200) {
          await trx
            .insertInto("feed_items")
            .values(unique.slice(i, i + 200).map((item) => itemValues(feedId, item, "seen", now)))
            .onConflict((oc) => oc.columns(["feed_id", "item_key"]).doNothing())
            .execute();
        }
        return true;
      });
    },

    async publishItem(feedId, item, publication, now) {
      return writeTransaction(database, async (trx) => {
        const decided = publication(item);
        const status: FeedItemStatus = decided.kind === "send" ? "sent" : decided.kind === "draft" ? "pending" : decided.kind === "skip" ? "skipped" : "refused";
        const inserted = await trx
          .insertInto("feed_items")
          .values({ ...itemValues(feedId, item, status, now), ...(decided.kind === "refuse" ? { reason: decided.reason } : {}), ...(status === "pending" ? {} : { decided_at: now }) })
          .onConflict((oc) => oc.columns(["feed_id", "item_key"]).doNothing())
          .returningAll()
          .executeTakeFirst();
        if (inserted === undefined) return { kind: "known" } as const;
        if (decided.kind !== "send") return { kind: "recorded", item: toItem(inserted) } as const;
        const notification = await insertNotificationWithJobs(trx, decided.notification, decided.options);
        await trx.updateTable("feed_items").set({ notification_id: notification.id }).where("id", "=", Number(inserted.id)).execute();
        return { kind: "sent", item: { ...toItem(inserted), notificationId: notification.id }, notification } as const;
      });
    },

    async knownKeys(feedId, keys) {
      const known = new Set<string>();
      const clipped = [...new Set(keys.map((k) => k.slice(0, KEY_MAX)))];
      for (let i = 0; i < clipped.length; i += 500) {
        const rows = await db.selectFrom("feed_items").select("item_key").where("feed_id", "=", feedId).where("item_key", "in", clipped.slice(i, i + 500)).execute();
        for (const row of rows) known.add(row.item_key);
      }
      return known;
    },

    async recordPoll(feedId, owner, poll, now) {
      const changed = await db
        .updateTable("feeds")
        .set((eb) => ({
          polls: eb("polls", "+", 1),
          last_polled_at: now,
          next_poll_at: poll.nextPollAt,
          lease_owner: null,
          lease_until: 0,
          ...(poll.ok
            ? {
                items_found: eb("items_found", "+", poll.itemsFound),
                last_success_at: now,
                last_error: null,
                last_error_at: null,
                ...(poll.primed ? { primed: 1 } : {}),
                ...(poll.title === undefined || poll.title === null ? {} : { title: poll.title.slice(0, 200) }),
                ...(poll.notModified ? {} : { etag: poll.etag ?? null, last_modified: poll.lastModified ?? null }),
              }
            : { errors: eb("errors", "+", 1), last_error: poll.error, last_error_at: now }),
        }))
        .where("id", "=", feedId)
        .where("lease_owner", "=", owner)
        .executeTakeFirst();
      return Number(changed.numUpdatedRows) > 0;
    },

    async pollSoon(id, now) {
      const changed = await db.updateTable("feeds").set({ next_poll_at: now }).where("id", "=", id).executeTakeFirst();
      return Number(changed.numUpdatedRows) === 0 ? undefined : findById(id);
    },

    async listItems(feedId, { status, page, pageSize }) {
      const base = db
        .selectFrom("feed_items")
        .where("feed_id", "=", feedId)
        .$if(status !== undefined, (qb) => qb.where("status", "=", status!));
      const [rows, total] = await Promise.all([
        base.selectAll().orderBy("id", "desc").limit(pageSize).offset((page - 1) * pageSize).execute(),
        base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
      ]);
      return { items: rows.map(toItem), total: Number(total.n) };
    },

    findItem,

    async approve(feedId, itemId, notificationOf, now) {
      const item = await findItem(feedId, itemId);
      if (item === undefined) return "not_found";
      if (item.status !== "pending") return "not_pending";
      const { notification, options } = notificationOf(item);
      return writeTransaction(database, async (trx) => {
        // The claim: only one transaction turns the draft from pending, so two operators (or two
        // clicks) approving at once make one notification.
        const claimed = await trx
          .updateTable("feed_items")
          .set({ status: "sent", decided_at: now })
          .where("id", "=", itemId)
          .where("feed_id", "=", feedId)
          .where("status", "=", "pending")
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return "not_pending" as const;
        const created = await insertNotificationWithJobs(trx, notification, options);
        await trx.updateTable("feed_items").set({ notification_id: created.id }).where("id", "=", itemId).execute();
        return { kind: "sent", item: { ...item, status: "sent", decidedAt: now, notificationId: created.id }, notification: created } as const;
      });
    },

    async dismiss(feedId, itemId, now) {
      const item = await findItem(feedId, itemId);
      if (item === undefined) return "not_found";
      const changed = await db
        .updateTable("feed_items")
        .set({ status: "dismissed", decided_at: now })
        .where("id", "=", itemId)
        .where("feed_id", "=", feedId)
        .where("status", "=", "pending")
        .executeTakeFirst();
      if (Number(changed.numUpdatedRows) === 0) return "not_pending";
      return { kind: "dismissed", item: { ...item, status: "dismissed", decidedAt: now } };
    },
  };
}
