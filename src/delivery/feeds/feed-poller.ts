import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { ChannelsRepository } from "../../store/channels-repository.js";
import type { ClaimedFeed, FeedItemInput, FeedsRepository, ItemPublication } from "../../store/feeds-repository.js";
import type { CreateNotificationOptions, Notification } from "../../store/notifications-repository.js";
import { DeliveryError } from "../delivery-error.js";
import type { LoopObservers } from "../loop-observers.js";
import { declarativePayloadFor, payloadFor } from "../notification-input.js";
import type { DeliveryLogger } from "../worker.js";
import { FeedFetchError, type FeedFetcher, type FeedPollErrorCode } from "./feed-fetcher.js";
import { feedItemNotification, type FeedAudience } from "./feed-notification.js";
import { FeedParseError, parseFeed } from "./parse-feed.js";

export interface FeedPollerOptions {
  /** How often to look for due feeds (ms). */
  readonly tickMs: number;
  /** How long a claimed feed stays with a worker that stopped (killed) before another polls it. */
  readonly leaseMs: number;
  /** Up to this fraction of a feed's interval is added at random to each next poll (0.2: +0–20 %). */
  readonly jitter: number;
  /** New items one poll publishes; older new items past it are recorded as skipped (never a flood). */
  readonly maxItemsPerPoll: number;
  /** Feeds polled at once per process. */
  readonly concurrency: number;
}

export interface FeedPollerDeps {
  readonly feeds: FeedsRepository;
  readonly channels: Pick<ChannelsRepository, "findById">;
  readonly fetcher: FeedFetcher;
  readonly clock: () => number;
  readonly logger: DeliveryLogger;
  readonly options: FeedPollerOptions;
  /** Subscription ids per range job, as for sends made now. */
  readonly jobSize: number;
  /** SINO_PUBLIC_URL: the declarative form of each push. */
  readonly publicUrl?: string;
  /** The organisation's logo, every feed push's icon; null: none. */
  readonly defaultIcon?: () => Promise<string | null>;
  /** Told about each send a feed item made (to wake the worker lanes). */
  readonly onSent: (notification: Notification) => void;
  readonly observers?: LoopObservers;
  readonly random?: () => number;
  /** Identifies this process in lease rows. */
  readonly id?: string;
}

export interface FeedPoller {
  readonly id: string;
  start(): void;
  /** Looks for due feeds now, and resolves once that look's polls are done (tests; "poll now"). */
  pollNow(): Promise<void>;
  stop(): Promise<void>;
}


/**
 * Polls the feeds admins registered, in every process that runs workers (like the scheduler). A
 * feed is claimed under a lease, so one worker polls it at a time; the item rows' unique
 * (feed, key), written in the same transaction as each notification, makes "published once" hold even if
 * a lease runs out mid-poll and another worker polls the same feed.
 */
export function createFeedPoller(deps: FeedPollerDeps): FeedPoller {
  const { feeds, fetcher, clock, logger, options } = deps;
  const id = deps.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const random = deps.random ?? Math.random;
  let running = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;

  const nextPollAt = (feed: ClaimedFeed, now: number) => now + Math.round(feed.intervalSeconds * 1000 * (1 + random() * options.jitter));

  async function audienceOf(feed: ClaimedFeed): Promise<FeedAudience> {
    if (feed.channelId === null) return null;
    const channel = await deps.channels.findById(feed.channelId);
    if (channel === undefined || channel.archived) throw new FeedFetchError("feed_channel_missing", `channel ${feed.channelId} is gone or archived`);
    return { channelId: channel.id, slug: channel.slug };
  }

  async function poll(feed: ClaimedFeed): Promise<void> {
    const started = clock();
    const fail = async (code: FeedPollErrorCode, message: string) => {
      logger.warn({ feedId: feed.id, code, err: message }, "feed poll failed");
      await feeds.recordPoll(feed.id, id, { ok: false, error: code, nextPollAt: nextPollAt(feed, clock()) }, clock());
    };
    let fetched;
    try {
      fetched = await fetcher.fetch(feed.url, { etag: feed.etag, lastModified: feed.lastModified });
    } catch (error) {
      if (error instanceof FeedFetchError) return fail(error.code, error.message);
      throw error;
    }
    if (fetched.kind === "not_modified") {
      await feeds.recordPoll(feed.id, id, { ok: true, notModified: true, itemsFound: 0, primed: feed.primed, nextPollAt: nextPollAt(feed, clock()) }, clock());
      return;
    }
    let parsed;
    try {
      parsed = parseFeed(fetched.body);
    } catch (error) {
      if (error instanceof FeedParseError) return fail(error.code, error.message);
      throw error;
    }
    const entries: FeedItemInput[] = parsed.entries.map((e) => ({ key: e.key, title: e.title, summary: e.summary, link: e.link, image: e.image }));
    const done = (itemsFound: number) =>
      feeds.recordPoll(
        feed.id,
        id,
        { ok: true, notModified: false, title: parsed.title, etag: fetched.validators.etag, lastModified: fetched.validators.lastModified, itemsFound, primed: true, nextPollAt: nextPollAt(feed, clock()) },
        clock(),
      );
    if (!feed.primed) {
      // The first poll: what is already there is old news, stored as seen and never sent.
      if (!(await feeds.prime(feed.id, id, entries, clock()))) return;
      logger.info({ feedId: feed.id, items: entries.length }, "feed primed: existing items marked as seen");
      await done(0);
      return;
    }
    const known = await feeds.knownKeys(
      feed.id,
      entries.map((e) => e.key),
    );
    // Feeds list the newest first: the new items are published oldest first, and past the cap
    // the oldest are skipped (a site that republished its archive must not flood anyone).
    const fresh = [...new Map(entries.filter((e) => !known.has(e.key)).map((e) => [e.key, e])).values()].reverse();
    if (fresh.length === 0) {
      await done(0);
      return;
    }
    let audience: FeedAudience;
    try {
      audience = await audienceOf(feed);
    } catch (error) {
      if (error instanceof FeedFetchError) return fail(error.code, error.message);
      throw error;
    }
    const icon = (await deps.defaultIcon?.()) ?? null;
    const skipped = Math.max(0, fresh.length - options.maxItemsPerPoll);
    let found = 0;
    for (const [index, entry] of fresh.entries()) {
      const now = clock();
      const publication = (item: FeedItemInput): ItemPublication => {
        if (index < skipped) return { kind: "skip" };
        if (feed.mode === "draft") return { kind: "draft" };
        try {
          const notification = feedItemNotification(item, audience, deps.publicUrl, icon);
          return { kind: "send", notification, options: sendOptions(notification, now) };
        } catch (error) {
          if (error instanceof DeliveryError) return { kind: "refuse", reason: error.code };
          throw error;
        }
      };
      const outcome = await feeds.publishItem(feed.id, entry, publication, now);
      if (outcome.kind === "known") continue;
      found++;
      if (outcome.kind === "sent") {
        logger.info({ feedId: feed.id, itemId: outcome.item.id, notification: outcome.notification.id }, "feed item sent");
        deps.onSent(outcome.notification);
      } else {
        logger.info({ feedId: feed.id, itemId: outcome.item.id, status: outcome.item.status }, "feed item recorded");
      }
    }
    await done(found);
    logger.info({ feedId: feed.id, found, ms: clock() - started }, "feed polled");
  }

  function sendOptions(notification: Parameters<typeof payloadFor>[0], now: number): CreateNotificationOptions {
    return feedItemNotificationOptions(notification, now, deps.jobSize, deps.publicUrl);
  }

  async function look(): Promise<void> {
    try {
      for (;;) {
        const claimed = await feeds.claimDue({ owner: id, now: clock(), leaseMs: options.leaseMs }, options.concurrency);
        await Promise.all(
          claimed.map((feed) =>
            poll(feed).catch(async (error: unknown) => {
              logger.error({ feedId: feed.id, err: error instanceof Error ? error.message : String(error) }, "feed poll failed unexpectedly");
              await feeds.recordPoll(feed.id, id, { ok: false, error: "feed_unreachable", nextPollAt: nextPollAt(feed, clock()) }, clock()).catch(() => undefined);
            }),
          ),
        );
        if (claimed.length < options.concurrency) break;
      }
      deps.observers?.outage?.succeeded();
    } catch (error) {
      if (deps.observers?.outage?.failed(error, "feeds") !== true) logger.error({ err: error }, "feed poller could not claim feeds; retrying");
    }
  }

  function tick(): void {
    if (!running || looking !== undefined) return;
    looking = look().finally(() => {
      looking = undefined;
      if (running) {
        clearTimeout(timer);
        timer = setTimeout(tick, options.tickMs);
        timer.unref();
      }
    });
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      tick();
    },
    async pollNow() {
      if (looking !== undefined) await looking;
      looking = look().finally(() => {
        looking = undefined;
      });
      await looking;
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await looking;
    },
  };
}

/** How a feed item's notification is stored: the poll's automatic send and an operator's approval alike. */
export function feedItemNotificationOptions(notification: Parameters<typeof payloadFor>[0], now: number, jobSize: number, publicUrl: string | undefined): CreateNotificationOptions {
  return {
    now,
    jobSize,
    payloadFor: ({ id, tag }) => payloadFor(notification, tag, String(id)),
    ...(publicUrl === undefined ? {} : { declarativePayloadFor: ({ id, tag }: { id: number; tag: string }) => declarativePayloadFor(notification, tag, String(id), publicUrl) }),
  };
}
