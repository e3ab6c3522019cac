import type { Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import { toCount } from "./count.js";
import { personIdStartsWith } from "./person-search.js";
import type { Schema } from "./schema.js";
import { removeSubscriptionsLogged } from "./subscription-removals.js";
import { writeTransaction } from "./write-transaction.js";
import { activityCondition } from "./engagement-repository.js";

export interface SubscriberRecord {
  readonly id: number;
  readonly userAgent: string | null;
  readonly personId: string | null;
  /** Active channels' slugs. */
  readonly channels: string[];
  readonly createdAt: number;
  readonly lastSeenAt: number;
  /** Epoch ms a push service answered 403 (VAPID key mismatch); null when not flagged. */
  readonly vapidMismatchAt: number | null;
  /** The IANA time zone its bell reported; null when unknown. */
  readonly timeZone: string | null;
  readonly lastShownAt: number | null;
  readonly lastClickedAt: number | null;
  readonly lastVisitAt: number | null;
}

/** Which user agents to keep (the browser filter is parsed from them by the caller). */
export interface UserAgentFilter {
  readonly values: readonly string[];
  readonly includeUnknown: boolean;
}

export interface SubscribersQuery {
  readonly channelId?: number;
  /** Only the subscriptions made on this site. */
  readonly siteId?: number;
  readonly userAgents?: UserAgentFilter;
  /** Only subscriptions of people whose id starts with this, ignoring case and accents. */
  readonly personIdPrefix?: string;
  /** Only active or only sleeping subscriptions (engagement-repository.ts), as of `activity.now`. */
  readonly activity?: { readonly kind: "active" | "sleeping"; readonly now: number; readonly sleepingDays: number };
  readonly offset: number;
  readonly limit: number;
}

export interface SubscribersRepository {
  /** Newest first; never the endpoint or keys. */
  list(query: SubscribersQuery): Promise<{ subscribers: SubscriberRecord[]; total: number }>;
  /** How many subscriptions each distinct User-Agent has (null: none sent), optionally on one site. */
  countByUserAgent(siteId?: number): Promise<{ userAgent: string | null; count: number }[]>;
  /** An operator removes one; logged as `operator`. */
  remove(id: number, now: number): Promise<boolean>;
}

export function createSubscribersRepository(database: DatabaseHandle): SubscribersRepository {
  const { db } = database;

  async function list(query: SubscribersQuery): Promise<{ subscribers: SubscriberRecord[]; total: number }> {
    const filtered = () =>
      db
        .selectFrom("subscriptions")
        .$if(query.siteId !== undefined, (qb) => qb.where("site_id", "=", query.siteId!))
        .$if(query.personIdPrefix !== undefined, (qb) => qb.where((eb) => personIdStartsWith(eb, query.personIdPrefix!)))
        .$if(query.activity !== undefined, (qb) => qb.where((eb) => activityCondition(eb, query.activity!)))
        .$if(query.channelId !== undefined, (qb) =>
          qb.where((eb) =>
            eb.exists(
              eb
                .selectFrom("subscription_channels")
                .select("channel_id")
                .whereRef("subscription_channels.subscription_id", "=", "subscriptions.id")
                .where("subscription_channels.channel_id", "=", query.channelId!),
            ),
          ),
        )
        .$if(query.userAgents !== undefined, (qb) =>
          qb.where((eb) => {
            const filter = query.userAgents!;
            const parts = [];
            if (filter.values.length > 0) parts.push(eb("user_agent", "in", [...filter.values]));
            if (filter.includeUnknown) parts.push(eb("user_agent", "is", null));
            // No user agent matches the browser asked for: an always-false condition.
            return parts.length === 0 ? eb("id", "<", 0) : eb.or(parts);
          }),
        );
    const totalRow = await filtered()
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .executeTakeFirstOrThrow();
    const rows = await filtered()
      .select(["id", "user_agent", "person_id", "created_at", "last_seen_at", "vapid_mismatch_at", "time_zone", "last_shown_at", "last_clicked_at", "last_visit_at"])
      .orderBy("id", "desc")
      .offset(query.offset)
      .limit(query.limit)
      .execute();
    const channels = await channelsOf(db, rows.map((r) => Number(r.id)));
    return {
      total: toCount(totalRow.n),
      subscribers: rows.map((r) => ({
        id: Number(r.id),
        userAgent: r.user_agent,
        personId: r.person_id,
        channels: channels.get(Number(r.id)) ?? [],
        createdAt: Number(r.created_at),
        lastSeenAt: Number(r.last_seen_at),
        vapidMismatchAt: r.vapid_mismatch_at === null ? null : Number(r.vapid_mismatch_at),
        timeZone: r.time_zone,
        lastShownAt: r.last_shown_at === null ? null : Number(r.last_shown_at),
        lastClickedAt: r.last_clicked_at === null ? null : Number(r.last_clicked_at),
        lastVisitAt: r.last_visit_at === null ? null : Number(r.last_visit_at),
      })),
    };
  }

  async function countByUserAgent(siteId?: number): Promise<{ userAgent: string | null; count: number }[]> {
    const rows = await db
      .selectFrom("subscriptions")
      .select(["user_agent", (eb) => eb.fn.countAll<number | string>().as("n")])
      .$if(siteId !== undefined, (qb) => qb.where("site_id", "=", siteId!))
      .groupBy("user_agent")
      .execute();
    return rows.map((r) => ({ userAgent: r.user_agent, count: toCount(r.n) }));
  }

  async function remove(id: number, now: number): Promise<boolean> {
    const removed = await writeTransaction(database, (trx) => removeSubscriptionsLogged(trx, [id], "operator", now));
    return removed.length > 0;
  }

  return { list, countByUserAgent, remove };
}

/** Active channels' slugs of each subscription, by id. */
export async function channelsOf(db: Kysely<Schema>, ids: readonly number[]): Promise<Map<number, string[]>> {
  const result = new Map<number, string[]>();
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom("subscription_channels")
    .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
    .select(["subscription_channels.subscription_id", "channels.slug"])
    .where("subscription_channels.subscription_id", "in", [...ids])
    .where("channels.archived", "=", 0)
    .orderBy("channels.slug")
    .execute();
  for (const row of rows) {
    const id = Number(row.subscription_id);
    result.set(id, [...(result.get(id) ?? []), row.slug]);
  }
  return result;
}
