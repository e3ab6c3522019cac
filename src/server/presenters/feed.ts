import type { Feed, FeedItem } from "../../shared/api/feeds.js";
import type { ChannelRecord } from "../../store/channels-repository.js";
import type { FeedItemRecord, FeedRecord } from "../../store/feeds-repository.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A feed and its poll state; `t` gives the last error's pt-BR text (`feeds:pollErrors.<code>`). */
export function presentFeed(feed: FeedRecord, channel: ChannelRecord | undefined, t: (key: string) => string): Feed {
  return {
    id: String(feed.id),
    url: feed.url,
    title: feed.title,
    channel: feed.channelId === null ? null : { slug: channel?.slug ?? "", name: channel?.name ?? "" },
    mode: feed.mode,
    intervalSeconds: feed.intervalSeconds,
    enabled: feed.enabled,
    primed: feed.primed,
    polls: feed.polls,
    itemsFound: feed.itemsFound,
    errors: feed.errors,
    pending: feed.pending,
    lastPolledAt: iso(feed.lastPolledAt),
    lastSuccessAt: iso(feed.lastSuccessAt),
    lastError:
      feed.lastError === null
        ? null
        : { code: feed.lastError, message: t(`feeds:pollErrors.${feed.lastError}`), at: new Date(feed.lastErrorAt ?? feed.lastPolledAt ?? feed.updatedAt).toISOString() },
    nextPollAt: new Date(feed.nextPollAt).toISOString(),
    createdAt: new Date(feed.createdAt).toISOString(),
  };
}

export function presentFeedItem(item: FeedItemRecord): FeedItem {
  return {
    id: String(item.id),
    key: item.key,
    title: item.title,
    summary: item.summary,
    link: item.link,
    image: item.image,
    status: item.status,
    reason: item.reason,
    notificationId: item.notificationId === null ? null : String(item.notificationId),
    createdAt: new Date(item.createdAt).toISOString(),
    decidedAt: iso(item.decidedAt),
  };
}
