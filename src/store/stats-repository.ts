import { sql } from "kysely";
import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";

/** Raw material of the daily charts; the caller buckets the times into days of its time zone. */
export interface SubscriberHistory {
  /** Subscribers that existed just before `since`. */
  readonly totalBefore: number;
  /** Creation times (>= since) of every subscription, still there or removed since. */
  readonly created: number[];
  /** Removal times (>= since). */
  readonly removed: number[];
}

export interface NotificationActivity {
  readonly publishedAt: number;
  readonly accepted: number;
  readonly clicked: number;
}

export interface StatsRepository {
  /** With `siteId`: that site's subscriptions and removals only. */
  subscriberHistory(since: number, siteId?: number): Promise<SubscriberHistory>;
  /** Subscribers per channel id, counting only one site's subscriptions. */
  channelCountsOnSite(siteId: number): Promise<Map<number, number>>;
  /** Notifications that went out since `since` (not scheduled, cancelled before going out, or "send to me" tests). */
  notificationsSince(since: number): Promise<NotificationActivity[]>;
}

export function createStatsRepository(database: DatabaseHandle): StatsRepository {
  const { db } = database;
  async function subscriberHistory(since: number, siteId?: number): Promise<SubscriberHistory> {
    const onSite = siteId !== undefined;
    // The count at `since` is exact: the subscriptions made before it that are still here, plus
    // those made before it and removed after it (removals keep their creation time).
    const existingBefore = await db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("created_at", "<", since)
      .$if(onSite, (qb) => qb.where("site_id", "=", siteId!))
      .executeTakeFirstOrThrow();
    const removedLater = await db
      .selectFrom("subscription_removals")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("subscription_created_at", "<", since)
      .where("removed_at", ">=", since)
      .$if(onSite, (qb) => qb.where("site_id", "=", siteId!))
      .executeTakeFirstOrThrow();
    const created = await db
      .selectFrom("subscriptions")
      .select("created_at")
      .where("created_at", ">=", since)
      .$if(onSite, (qb) => qb.where("site_id", "=", siteId!))
      .execute();
    const removals = await db
      .selectFrom("subscription_removals")
      .select(["removed_at", "subscription_created_at"])
      .where((eb) => eb.or([eb("removed_at", ">=", since), eb("subscription_created_at", ">=", since)]))
      .$if(onSite, (qb) => qb.where("site_id", "=", siteId!))
      .execute();
    // Removals past SINO_REMOVED_RETENTION_DAYS, rolled up by quarter hour (retention-repository.ts):
    // `since` is a midnight, hence a quarter hour, so each bucket falls wholly on one side.
    const buckets = await db
      .selectFrom("subscription_removal_buckets")
      .select(["created_bucket", "removed_bucket", "count"])
      .where((eb) => eb.or([eb("removed_bucket", ">=", since), eb("created_bucket", ">=", since)]))
      .$if(onSite, (qb) => qb.where("site_id", "=", siteId!))
      .execute();
    const repeat = (time: number, count: number): number[] => Array.from({ length: count }, () => time);
    return {
      totalBefore:
        toCount(existingBefore.n) +
        toCount(removedLater.n) +
        buckets.filter((b) => Number(b.created_bucket) < since && Number(b.removed_bucket) >= since).reduce((sum, b) => sum + Number(b.count), 0),
      created: [
        ...created.map((r) => Number(r.created_at)),
        ...removals.filter((r) => Number(r.subscription_created_at) >= since).map((r) => Number(r.subscription_created_at)),
        ...buckets.filter((b) => Number(b.created_bucket) >= since).flatMap((b) => repeat(Number(b.created_bucket), Number(b.count))),
      ],
      removed: [
        ...removals.filter((r) => Number(r.removed_at) >= since).map((r) => Number(r.removed_at)),
        ...buckets.filter((b) => Number(b.removed_bucket) >= since).flatMap((b) => repeat(Number(b.removed_bucket), Number(b.count))),
      ],
    };
  }

  async function notificationsSince(since: number): Promise<NotificationActivity[]> {
    const publishedAt = sql<number>`coalesce(notifications.send_at, notifications.created_at)`;
    const rows = await db
      .selectFrom("notifications")
      .select([
        publishedAt.as("published_at"),
        "accepted",
        (eb) =>
          eb
            .selectFrom("notification_events")
            .select((e) => e.fn.countAll<number | string>().as("n"))
            .whereRef("notification_events.notification_id", "=", "notifications.id")
            .where("notification_events.type", "=", "clicked")
            .as("clicked"),
        // Clicks older than SINO_EVENT_RETENTION_DAYS, rolled up per day (retention-repository.ts).
        (eb) =>
          eb
            .selectFrom("notification_event_days")
            .select((e) => e.fn.sum<number | string | null>("notification_event_days.count").as("n"))
            .whereRef("notification_event_days.notification_id", "=", "notifications.id")
            .where("notification_event_days.type", "=", "clicked")
            .as("clicked_before"),
      ])
      .where("status", "in", ["queued", "sending", "completed", "failed", "no_recipients"])
      .where("audience", "not like", '{"kind":"endpoint"%')
      .where(publishedAt, ">=", since)
      .execute();
    return rows.map((r) => ({ publishedAt: Number(r.published_at), accepted: Number(r.accepted), clicked: toCount(r.clicked) + Number(r.clicked_before ?? 0) }));
  }

  async function channelCountsOnSite(siteId: number): Promise<Map<number, number>> {
    const rows = await db
      .selectFrom("subscription_channels")
      .innerJoin("subscriptions", "subscriptions.id", "subscription_channels.subscription_id")
      .select(["subscription_channels.channel_id", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("subscriptions.site_id", "=", siteId)
      .groupBy("subscription_channels.channel_id")
      .execute();
    return new Map(rows.map((r) => [Number(r.channel_id), toCount(r.n)]));
  }

  return { subscriberHistory, channelCountsOnSite, notificationsSince };
}
