import { sql } from "kysely";
import type { DatabaseHandle } from "./database.js";

export interface NoticeRecord {
  readonly id: number;
  readonly title: string;
  readonly body: string | null;
  readonly url: string | null;
  readonly icon: string | null;
  readonly image: string | null;
  /** Active channels it went to; empty when it went to everyone. */
  readonly channels: { slug: string; name: string }[];
  readonly publishedAt: number;
}

/** Keyset position: (publishedAt, id) of the last notice of a page. */
export interface NoticeCursor {
  readonly publishedAt: number;
  readonly id: number;
}

export interface NoticesQuery {
  readonly channelId?: number;
  readonly before?: NoticeCursor;
  readonly limit: number;
  /** Only notices with id > this (the live stream's poll). */
  readonly afterId?: number;
}

/** A notification that left Avisos (hidden or removed): the live stream tells open pages to drop it. */
export interface WithdrawnNotice {
  readonly id: number;
  /** Its channels (active or not), so a channel's stream tells only its own pages. */
  readonly channels: readonly string[];
  readonly changedAt: number;
}

export interface NoticesRepository {
  /**
   * Newest first. Only sends that went out, to everyone or to at least one active channel, and
   * that the operators left public (`notice`).
   */
  list(query: NoticesQuery): Promise<NoticeRecord[]>;
  /** Notifications that left Avisos at or after `since` (oldest change first, at most `limit`). */
  withdrawnSince(since: number, limit: number): Promise<WithdrawnNotice[]>;
}

/** Statuses of a notification that went out (scheduled ones have not yet; cancelled ones may never). */
const WENT_OUT = ["queued", "sending", "completed", "no_recipients"] as const;

export function createNoticesRepository(database: DatabaseHandle): NoticesRepository {
  const { db } = database;
  async function list(query: NoticesQuery): Promise<NoticeRecord[]> {
    const publishedAt = sql<number>`coalesce(notifications.send_at, notifications.created_at)`;
    const rows = await db
      .selectFrom("notifications")
      .select(["id", "title", "body", "url", "icon", "image", publishedAt.as("published_at")])
      .where("status", "in", [...WENT_OUT])
      .where("notice", "=", "public")
      // "Send to me" tests go to one browser; they are not notices. (The audience JSON is written
      // by JSON.stringify with `kind` first.)
      .where("audience", "not like", '{"kind":"endpoint"%')
      .where((eb) =>
        eb.or([
          eb.not(eb.exists(eb.selectFrom("notification_channels").select("channel_id").whereRef("notification_channels.notification_id", "=", "notifications.id"))),
          eb.exists(
            eb
              .selectFrom("notification_channels")
              .innerJoin("channels", "channels.id", "notification_channels.channel_id")
              .select("channels.id")
              .whereRef("notification_channels.notification_id", "=", "notifications.id")
              .where("channels.archived", "=", 0),
          ),
        ]),
      )
      .$if(query.channelId !== undefined, (qb) =>
        qb.where((eb) =>
          eb.exists(
            eb
              .selectFrom("notification_channels")
              .select("channel_id")
              .whereRef("notification_channels.notification_id", "=", "notifications.id")
              .where("notification_channels.channel_id", "=", query.channelId!),
          ),
        ),
      )
      .$if(query.before !== undefined, (qb) =>
        qb.where((eb) =>
          eb.or([
            eb(publishedAt, "<", query.before!.publishedAt),
            eb.and([eb(publishedAt, "=", query.before!.publishedAt), eb("id", "<", query.before!.id)]),
          ]),
        ),
      )
      .$if(query.afterId !== undefined, (qb) => qb.where("id", ">", query.afterId!))
      .orderBy(publishedAt, "desc")
      .orderBy("id", "desc")
      .limit(query.limit)
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.id));
    const channelRows = await db
      .selectFrom("notification_channels")
      .innerJoin("channels", "channels.id", "notification_channels.channel_id")
      .select(["notification_channels.notification_id", "channels.slug", "channels.name"])
      .where("notification_channels.notification_id", "in", ids)
      .where("channels.archived", "=", 0)
      .orderBy("channels.slug")
      .execute();
    const byNotification = new Map<number, { slug: string; name: string }[]>();
    for (const row of channelRows) {
      const id = Number(row.notification_id);
      byNotification.set(id, [...(byNotification.get(id) ?? []), { slug: row.slug, name: row.name }]);
    }
    return rows.map((r) => ({
      id: Number(r.id),
      title: r.title,
      body: r.body,
      url: r.url,
      icon: r.icon,
      image: r.image,
      channels: byNotification.get(Number(r.id)) ?? [],
      publishedAt: Number(r.published_at),
    }));
  }

  async function withdrawnSince(since: number, limit: number): Promise<WithdrawnNotice[]> {
    const rows = await db
      .selectFrom("notifications")
      .select(["id", "notice_changed_at"])
      .where("notice_changed_at", ">=", since)
      .where("notice", "!=", "public")
      .orderBy("notice_changed_at")
      .orderBy("id")
      .limit(limit)
      .execute();
    if (rows.length === 0) return [];
    const channelRows = await db
      .selectFrom("notification_channels")
      .innerJoin("channels", "channels.id", "notification_channels.channel_id")
      .select(["notification_channels.notification_id", "channels.slug"])
      .where("notification_channels.notification_id", "in", rows.map((r) => Number(r.id)))
      .execute();
    return rows.map((r) => ({
      id: Number(r.id),
      channels: channelRows.filter((c) => Number(c.notification_id) === Number(r.id)).map((c) => c.slug),
      changedAt: Number(r.notice_changed_at),
    }));
  }

  return { list, withdrawnSince };
}
