import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  NOTICES_PAGE_SIZE,
  noticeStreamQuerySchema,
  noticesQuerySchema,
  noticesResponseSchema,
  type Notice,
} from "../../../shared/api/notices.js";
import { API_ROUTES, NOTICE_STREAM_EVENT, NOTICE_WITHDRAWN_EVENT } from "../../../shared/api/routes.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { NoticeCursor, NoticeRecord, NoticesRepository } from "../../../store/notices-repository.js";
import type { Translator } from "../../i18n.js";
import { textResponse } from "../../openapi.js";
import { apiError, limitError } from "../../errors.js";
import { openEventStream, type EventStream } from "../../sse.js";
import { createStreamLimiter, type StreamLimits } from "../../stream-limiter.js";
import { createIntervalTicker, createNoticeFeed, type Ticker } from "./notice-feed.js";
import { answers } from "../route-docs.js";

export interface NoticeRoutesDeps {
  readonly notices: NoticesRepository;
  readonly channels: Pick<ChannelsRepository, "findBySlug">;
  readonly translator: Translator;
  /** SINO_STREAMS_MAX / SINO_STREAMS_MAX_PER_ADDRESS: open live streams allowed. */
  readonly streamLimits: StreamLimits;
  /** How often the live streams' shared poll looks for new notices (other processes publish too); default 2 s. */
  readonly streamPollMs?: number;
  /** Spaces the shared poll instead of a timer every `streamPollMs` (tests drive it by hand). */
  readonly streamTicker?: Ticker;
}

export function presentNotice(notice: NoticeRecord): Notice {
  return {
    id: String(notice.id),
    title: notice.title,
    body: notice.body,
    url: notice.url,
    icon: notice.icon,
    image: notice.image,
    channels: notice.channels,
    publishedAt: new Date(notice.publishedAt).toISOString(),
  };
}

/** `<publishedAt>.<id>`: opaque to clients, the keyset position of the last notice of a page. */
function encodeCursor(notice: NoticeRecord): string {
  return `${notice.publishedAt}.${notice.id}`;
}

function decodeCursor(cursor: string | undefined): NoticeCursor | undefined | "invalid" {
  if (cursor === undefined || cursor === "") return undefined;
  const match = /^(\d{1,16})\.(\d{1,15})$/.exec(cursor);
  return match === null ? "invalid" : { publishedAt: Number(match[1]), id: Number(match[2]) };
}

/** Avisos: the public list of what was sent, and a live stream of new ones. */
export function registerNoticeRoutes(app: FastifyInstance, deps: NoticeRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = [t("api:tags.public")];
  const limiter = createStreamLimiter(deps.streamLimits);
  const feed = createNoticeFeed({
    notices: deps.notices,
    ticker: deps.streamTicker ?? createIntervalTicker(deps.streamPollMs ?? 2000),
    onPollError: (error) => app.log.warn({ err: error }, "notice stream poll failed"),
  });
  app.addHook("onClose", async () => feed.close());

  /** The channel filter: unknown or archived → no notices (not an error: a stale link still loads). */
  async function channelFilter(slug: string | undefined): Promise<number | undefined | "none"> {
    if (slug === undefined || slug === "") return undefined;
    const channel = await deps.channels.findBySlug(slug);
    return channel === undefined || channel.archived ? "none" : channel.id;
  }

  routes.get(
    API_ROUTES.notices,
    { schema: { operationId: "listNotices", security: [], summary: t("api:routes.notices"), tags, querystring: noticesQuerySchema, response: answers({ 200: noticesResponseSchema }) } },
    async (request, reply) => {
      const limit = request.query.limit ?? NOTICES_PAGE_SIZE;
      const channelId = await channelFilter(request.query.channel);
      const before = decodeCursor(request.query.before);
      reply.header("cache-control", "no-cache");
      if (channelId === "none" || before === "invalid") return { notices: [], nextCursor: null };
      // One more than asked tells whether there is a next page without a COUNT.
      const rows = await deps.notices.list({
        limit: limit + 1,
        ...(channelId === undefined ? {} : { channelId }),
        ...(before === undefined ? {} : { before }),
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return { notices: page.map(presentNotice), nextCursor: rows.length > limit && last !== undefined ? encodeCursor(last) : null };
    },
  );

  routes.get(
    API_ROUTES.noticesStream,
    {
      schema: {
        operationId: "streamNotices",
        security: [],
        summary: t("api:routes.noticesStream"),
        tags,
        querystring: noticeStreamQuerySchema,
        produces: ["text/event-stream"],
        response: answers({ 200: textResponse("text/event-stream", t("api:responses.eventStream")) }),
      },
    },
    async (request, reply) => {
      const slot = limiter.acquire(request.ip);
      if (!slot.ok) throw slot.reason === "address" ? limitError("too_many_streams", undefined, "streams", deps.streamLimits.maxPerAddress) : apiError("streams_unavailable");
      // Filled in once the response is taken over (below); the feed calls back only after that.
      const out: { stream?: EventStream } = {};
      let unsubscribe = () => {};
      try {
        const slug = request.query.channel;
        const channelId = await channelFilter(slug);
        // An unknown or archived channel: the stream stays open and quiet (a stale link still loads).
        if (channelId !== "none") {
          const wanted = (notice: NoticeRecord) => slug === undefined || slug === "" || notice.channels.some((c) => c.slug === slug);
          // Subscribed before the response is taken over, so a database error is still an
          // ordinary error answer; the feed calls back only from a later poll, by which time
          // the stream below is open.
          unsubscribe = await feed.subscribe((notices, withdrawn) => {
            for (const notice of notices) if (wanted(notice)) out.stream?.send(NOTICE_STREAM_EVENT, notice.id, JSON.stringify(presentNotice(notice)));
            // No event id: the stream's Last-Event-ID stays the newest notice published.
            for (const { id, channels } of withdrawn) {
              if (slug === undefined || slug === "" || channels.includes(slug)) out.stream?.send(NOTICE_WITHDRAWN_EVENT, undefined, JSON.stringify({ id: String(id) }));
            }
          });
        }
      } catch (error) {
        slot.release();
        throw error;
      }
      const stream = (out.stream = openEventStream(reply));
      stream.onClose(() => {
        unsubscribe();
        slot.release();
      });
    },
  );
}
