import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { DeliveryError } from "../../../delivery/delivery-error.js";
import { checkFeedUrl, type FeedUrlPolicy } from "../../../delivery/feeds/feed-url-policy.js";
import { feedItemNotificationOptions } from "../../../delivery/feeds/feed-poller.js";
import { feedItemNotification } from "../../../delivery/feeds/feed-notification.js";
import type { ResolveHost } from "../../../delivery/webhooks/url-policy.js";
import {
  FEED_ITEMS_PAGE_SIZE,
  MAX_FEEDS,
  createFeedRequestSchema,
  feedItemResponseSchema,
  feedItemsQuerySchema,
  feedItemsResponseSchema,
  feedResponseSchema,
  feedsResponseSchema,
  updateFeedRequestSchema,
} from "../../../shared/api/feeds.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { ChannelRecord, ChannelsRepository } from "../../../store/channels-repository.js";
import type { FeedRecord, FeedsRepository } from "../../../store/feeds-repository.js";
import type { Notification } from "../../../store/notifications-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, apiErrorSchema, noContentSchema } from "../../openapi.js";
import { presentFeed, presentFeedItem } from "../../presenters/feed.js";
import { requireJson } from "../../require-json.js";

export interface FeedRoutesDeps {
  readonly feeds: FeedsRepository;
  readonly channels: Pick<ChannelsRepository, "findById" | "findBySlug">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
  readonly urlPolicy: FeedUrlPolicy;
  /** SINO_FEED_MIN_INTERVAL_SECONDS / SINO_FEED_INTERVAL_SECONDS. */
  readonly minIntervalSeconds: number;
  readonly defaultIntervalSeconds: number;
  /** Subscription ids per range job of an approved draft's send. */
  readonly jobSize: number;
  readonly publicUrl: string;
  /** The organisation's logo, every feed push's icon; null: none. */
  readonly defaultIcon?: () => Promise<string | null>;
  /** Tests inject one; DNS otherwise. */
  readonly resolveHost?: ResolveHost;
  /** Polls at once when this process runs the poller ("Ler agora"). */
  readonly pollNow?: () => void;
  /** Told about the send an approved draft made (wakes the worker lanes). */
  readonly onSent?: (send: Notification) => void;
}

const feedParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: "feed_not_found" }) });
const itemParams = feedParams.extend({ itemId: z.string().regex(/^\d{1,15}$/, { error: "feed_item_not_found" }) });

/** RSS/Atom feeds turned into sends: admins only (a signed-in admin or an admin token). */
export function registerFeedRoutes(app: FastifyInstance, deps: FeedRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const requireAdmin = deps.authenticator.requireAdmin;
  const doc = (key: string) => ({ summary: t(`feeds:api.${key}`), tags: [t("feeds:api.tag")], security: OPERATOR_SECURITY });

  async function present(feed: FeedRecord) {
    const channel = feed.channelId === null ? undefined : await deps.channels.findById(feed.channelId);
    return presentFeed(feed, channel, (key) => t(key));
  }

  async function found(id: string): Promise<FeedRecord> {
    const feed = await deps.feeds.findById(Number(id));
    if (feed === undefined) throw apiError("feed_not_found");
    return feed;
  }

  async function allowedUrl(input: string): Promise<string> {
    const check = await checkFeedUrl(input, deps.urlPolicy, deps.resolveHost);
    if (!check.ok) throw apiError(check.code, "url");
    return check.url;
  }

  async function channelOf(slug: string | null): Promise<ChannelRecord | null> {
    if (slug === null) return null;
    const channel = await deps.channels.findBySlug(slug);
    if (channel === undefined || channel.archived) throw apiError("channel_not_found", "channel");
    return channel;
  }

  function interval(seconds: number | undefined): number | undefined {
    if (seconds !== undefined && seconds < deps.minIntervalSeconds) throw apiError("feed_interval_invalid", "intervalSeconds");
    return seconds;
  }

  routes.get(
    API_ROUTES.feeds,
    { onRequest: requireAdmin, schema: { operationId: "listFeeds", ...doc("list"), response: { 200: feedsResponseSchema, "4xx": apiErrorSchema } } },
    async () => {
      const feeds = await deps.feeds.list();
      return {
        feeds: await Promise.all(feeds.map(present)),
        minIntervalSeconds: deps.minIntervalSeconds,
        defaultIntervalSeconds: deps.defaultIntervalSeconds,
      };
    },
  );

  routes.post(
    API_ROUTES.feeds,
    {
      onRequest: [requireAdmin, requireJson],
      schema: {
        operationId: "createFeed",
        ...doc("create"),
        description: t("feeds:api.createDescription"),
        body: createFeedRequestSchema,
        response: { 201: feedResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { url: asked, channel: slug, mode, intervalSeconds } = request.body;
      const seconds = interval(intervalSeconds) ?? deps.defaultIntervalSeconds;
      const channel = await channelOf(slug ?? null);
      const url = await allowedUrl(asked);
      const feed = await deps.feeds.create({ url, channelId: channel?.id ?? null, mode, intervalSeconds: seconds }, deps.now(), MAX_FEEDS);
      if (feed === undefined) throw apiError("too_many_feeds");
      request.log.info({ feedId: feed.id, mode, channel: channel?.slug ?? null }, "feed created");
      deps.pollNow?.();
      return reply.code(201).send({ feed: await present(feed) });
    },
  );

  routes.get(
    `${API_ROUTES.feeds}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "getFeed", ...doc("get"), params: feedParams, response: { 200: feedResponseSchema, "4xx": apiErrorSchema } } },
    async (request) => ({ feed: await present(await found(request.params.id)) }),
  );

  routes.patch(
    `${API_ROUTES.feeds}/:id`,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "updateFeed", ...doc("update"), params: feedParams, body: updateFeedRequestSchema, response: { 200: feedResponseSchema, "4xx": apiErrorSchema } },
    },
    async (request) => {
      const { channel: slug, mode, intervalSeconds, enabled } = request.body;
      await found(request.params.id);
      const channel = slug === undefined ? undefined : await channelOf(slug);
      const feed = await deps.feeds.update(
        Number(request.params.id),
        {
          ...(channel === undefined ? {} : { channelId: channel?.id ?? null }),
          ...(mode === undefined ? {} : { mode }),
          ...(intervalSeconds === undefined ? {} : { intervalSeconds: interval(intervalSeconds)! }),
          ...(enabled === undefined ? {} : { enabled }),
        },
        deps.now(),
      );
      if (feed === undefined) throw apiError("feed_not_found");
      request.log.info({ feedId: feed.id, enabled: feed.enabled, mode: feed.mode }, "feed updated");
      return { feed: await present(feed) };
    },
  );

  routes.delete(
    `${API_ROUTES.feeds}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "deleteFeed", ...doc("delete"), params: feedParams, response: { 204: noContentSchema, "4xx": apiErrorSchema } } },
    async (request, reply) => {
      if (!(await deps.feeds.remove(Number(request.params.id)))) throw apiError("feed_not_found");
      request.log.info({ feedId: Number(request.params.id) }, "feed deleted");
      return reply.code(204).send(null);
    },
  );

  routes.post(
    `${API_ROUTES.feeds}/:id/poll`,
    { onRequest: requireAdmin, schema: { operationId: "pollFeed", ...doc("poll"), params: feedParams, response: { 202: feedResponseSchema, "4xx": apiErrorSchema } } },
    async (request, reply) => {
      const feed = await deps.feeds.pollSoon(Number(request.params.id), deps.now());
      if (feed === undefined) throw apiError("feed_not_found");
      deps.pollNow?.();
      return reply.code(202).send({ feed: await present(feed) });
    },
  );

  routes.get(
    `${API_ROUTES.feeds}/:id/items`,
    {
      onRequest: requireAdmin,
      schema: { operationId: "listFeedItems", ...doc("items"), params: feedParams, querystring: feedItemsQuerySchema, response: { 200: feedItemsResponseSchema, "4xx": apiErrorSchema } },
    },
    async (request) => {
      const feed = await found(request.params.id);
      const { page, status } = request.query;
      const { items, total } = await deps.feeds.listItems(feed.id, { ...(status === undefined ? {} : { status }), page, pageSize: FEED_ITEMS_PAGE_SIZE });
      return { items: items.map(presentFeedItem), total, page, pageSize: FEED_ITEMS_PAGE_SIZE };
    },
  );

  routes.post(
    `${API_ROUTES.feeds}/:id/items/:itemId/approve`,
    { onRequest: requireAdmin, schema: { operationId: "approveFeedItem", ...doc("approve"), params: itemParams, response: { 201: feedItemResponseSchema, "4xx": apiErrorSchema } } },
    async (request, reply) => {
      const feed = await found(request.params.id);
      const channel = feed.channelId === null ? null : await deps.channels.findById(feed.channelId);
      if (channel !== null && (channel === undefined || channel.archived)) throw apiError("channel_not_found");
      const icon = (await deps.defaultIcon?.()) ?? null;
      const now = deps.now();
      let outcome;
      try {
        outcome = await deps.feeds.approve(
          feed.id,
          Number(request.params.itemId),
          (item) => {
            const send = feedItemNotification(item, channel === null ? null : { channelId: channel.id, slug: channel.slug }, deps.publicUrl, icon);
            return { notification: send, options: feedItemNotificationOptions(send, now, deps.jobSize, deps.publicUrl) };
          },
          now,
        );
      } catch (error) {
        if (error instanceof DeliveryError) throw apiError("feed_item_refused");
        throw error;
      }
      if (outcome === "not_found") throw apiError("feed_item_not_found");
      if (outcome === "not_pending" || outcome.kind !== "sent") throw apiError("feed_item_not_pending");
      request.log.info({ feedId: feed.id, itemId: outcome.item.id, send: outcome.notification.id }, "feed draft approved");
      deps.onSent?.(outcome.notification);
      return reply.code(201).send({ item: presentFeedItem(outcome.item) });
    },
  );

  routes.post(
    `${API_ROUTES.feeds}/:id/items/:itemId/dismiss`,
    { onRequest: requireAdmin, schema: { operationId: "dismissFeedItem", ...doc("dismiss"), params: itemParams, response: { 200: feedItemResponseSchema, "4xx": apiErrorSchema } } },
    async (request) => {
      const feed = await found(request.params.id);
      const outcome = await deps.feeds.dismiss(feed.id, Number(request.params.itemId), deps.now());
      if (outcome === "not_found") throw apiError("feed_item_not_found");
      if (outcome === "not_pending" || outcome.kind !== "dismissed") throw apiError("feed_item_not_pending");
      request.log.info({ feedId: feed.id, itemId: outcome.item.id }, "feed draft dismissed");
      return { item: presentFeedItem(outcome.item) };
    },
  );
}
