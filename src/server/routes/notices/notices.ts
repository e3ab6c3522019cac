import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  NOTICES_PAGE_SIZE,
  NOTICE_STREAM_EVENT,
  noticeStreamQuerySchema,
  noticesQuerySchema,
  noticesResponseSchema,
  type Notice,
} from "../../../shared/api/notices.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { NoticeCursor, NoticeRecord, NoticesRepository } from "../../../store/notices-repository.js";
import type { Translator } from "../../i18n.js";
import { apiErrorSchema } from "../../openapi.js";
import { openEventStream } from "../../sse.js";

export interface NoticeRoutesDeps {
  readonly notices: NoticesRepository;
  readonly channels: Pick<ChannelsRepository, "findBySlug">;
  readonly translator: Translator;
  /** How often a live stream looks for new notices (other processes publish too); default 2 s. */
  readonly streamPollMs?: number;
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

  /** The channel filter: unknown or archived → no notices (not an error: a stale link still loads). */
  async function channelFilter(slug: string | undefined): Promise<number | undefined | "none"> {
    if (slug === undefined || slug === "") return undefined;
    const channel = await deps.channels.findBySlug(slug);
    return channel === undefined || channel.archived ? "none" : channel.id;
  }

  routes.get(
    API_ROUTES.notices,
    { schema: { summary: t("api:routes.notices"), tags, querystring: noticesQuerySchema, response: { 200: noticesResponseSchema, "4xx": apiErrorSchema } } },
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
        summary: t("api:routes.noticesStream"),
        tags,
        querystring: noticeStreamQuerySchema,
        produces: ["text/event-stream"],
        response: { "4xx": apiErrorSchema },
      },
    },
    async (request, reply) => {
      const channelId = await channelFilter(request.query.channel);
      // Only what is published from now on: the page already has the rest.
      const newest = await deps.notices.list({ limit: 1 });
      let lastId = newest[0]?.id ?? 0;
      const stream = openEventStream(reply);
      let polling = false;
      const poll = async () => {
        if (stream.closed || polling || channelId === "none") return;
        polling = true;
        try {
          // Polling the database, not an in-process event: sends made by any process (the API
          // of another instance, the scheduler in a worker) show up alike.
          const fresh = await deps.notices.list({ limit: 50, afterId: lastId, ...(channelId === undefined ? {} : { channelId }) });
          const unfiltered = channelId === undefined ? fresh : await deps.notices.list({ limit: 50, afterId: lastId });
          for (const notice of [...fresh].reverse()) stream.send(NOTICE_STREAM_EVENT, notice.id, JSON.stringify(presentNotice(notice)));
          lastId = Math.max(lastId, ...unfiltered.map((n) => n.id), ...fresh.map((n) => n.id));
        } catch (error) {
          request.log.warn({ err: error }, "notice stream poll failed");
        } finally {
          polling = false;
        }
      };
      const timer = setInterval(() => void poll(), deps.streamPollMs ?? 2000);
      stream.onClose(() => clearInterval(timer));
    },
  );
}
