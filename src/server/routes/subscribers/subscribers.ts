import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { SUBSCRIBERS_PAGE_SIZE, subscribersQuerySchema, subscribersResponseSchema } from "../../../shared/api/subscribers.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { SubscribersRepository, UserAgentFilter } from "../../../store/subscribers-repository.js";
import type { TagsRepository } from "../../../store/tags-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { CSV_CONTENT_TYPE, UTF8_BOM, toCsv } from "../../csv.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { noContentSchema, textResponse } from "../../openapi.js";
import { describeUserAgent } from "../../presenters/user-agent.js";
import { presentActivity } from "../../presenters/subscriber-activity.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface SubscriberRoutesDeps {
  readonly subscribers: SubscribersRepository;
  readonly channels: Pick<ChannelsRepository, "list" | "findBySlug">;
  readonly tags: Pick<TagsRepository, "personTagsOf" | "subscriptionTagsOf">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
  /** SINO_SLEEPING_DAYS: the `activity` filter and each subscriber's `sleeping`. */
  readonly sleepingDays: number;
}

const idParams = idParamsOf("subscriber_not_found");

/** Browser → subscriptions, from the distinct User-Agents (few) rather than every row. */
export async function countByBrowser(subscribers: Pick<SubscribersRepository, "countByUserAgent">, siteId?: number): Promise<Map<string | null, number>> {
  const counts = new Map<string | null, number>();
  for (const { userAgent, count } of await subscribers.countByUserAgent(siteId)) {
    const { browser } = describeUserAgent(userAgent);
    counts.set(browser, (counts.get(browser) ?? 0) + count);
  }
  return counts;
}

/** Operators' view of subscriptions (admin only): never the endpoint or keys. */
export function registerSubscriberRoutes(app: FastifyInstance, deps: SubscriberRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.subscribers");
  const { requireAdmin } = deps.authenticator;

  /** `browser` as the list shows it; the unknown ones are asked for as the catalog's "Outro". */
  async function userAgentFilter(browser: string): Promise<UserAgentFilter> {
    const unknown = t("api:csv.unknownBrowser");
    const values: string[] = [];
    let includeUnknown = false;
    for (const { userAgent } of await deps.subscribers.countByUserAgent()) {
      const name = describeUserAgent(userAgent).browser;
      if (name === browser) values.push(userAgent!);
      else if (name === null && browser === unknown) {
        if (userAgent === null) includeUnknown = true;
        else values.push(userAgent);
      }
    }
    return { values, includeUnknown };
  }

  routes.get(
    API_ROUTES.subscribers,
    {
      onRequest: requireAdmin,
      schema: { operationId: "listSubscribers", ...doc("api:routes.subscribersList"), querystring: subscribersQuerySchema, response: answers({ 200: subscribersResponseSchema }) },
    },
    async (request) => {
      const q = request.query;
      const now = deps.now();
      const pageSize = q.pageSize ?? SUBSCRIBERS_PAGE_SIZE;
      const page = q.page ?? 1;
      let channelId: number | undefined;
      if (q.channel !== undefined && q.channel !== "") {
        const channel = await deps.channels.findBySlug(q.channel);
        if (channel === undefined) return { subscribers: [], total: 0 };
        channelId = channel.id;
      }
      const result = await deps.subscribers.list({
        offset: (page - 1) * pageSize,
        limit: pageSize,
        ...(channelId === undefined ? {} : { channelId }),
        ...(q.site === undefined ? {} : { siteId: Number(q.site) }),
        ...(q.browser === undefined || q.browser === "" ? {} : { userAgents: await userAgentFilter(q.browser) }),
        ...(q.user === undefined || q.user === "" ? {} : { personIdPrefix: q.user }),
        ...(q.activity === undefined ? {} : { activity: { kind: q.activity, now, sleepingDays: deps.sleepingDays } }),
      });
      const visitor = await deps.tags.subscriptionTagsOf(result.subscribers.map((s) => s.id));
      const trusted = await deps.tags.personTagsOf(result.subscribers.flatMap((s) => (s.personId === null ? [] : [s.personId])));
      return {
        total: result.total,
        subscribers: result.subscribers.map((s) => ({
          id: String(s.id),
          ...describeUserAgent(s.userAgent),
          userId: s.personId,
          channels: s.channels,
          createdAt: new Date(s.createdAt).toISOString(),
          lastSeenAt: new Date(s.lastSeenAt).toISOString(),
          vapidMismatchAt: s.vapidMismatchAt === null ? null : new Date(s.vapidMismatchAt).toISOString(),
          timeZone: s.timeZone,
          tags: { trusted: (s.personId === null ? undefined : trusted.get(s.personId)) ?? {}, visitor: visitor.get(s.id) ?? {} },
          activity: presentActivity(s, now, deps.sleepingDays),
        })),
      };
    },
  );

  routes.delete(
    `${API_ROUTES.subscribers}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "deleteSubscriber", ...doc("api:routes.subscribersDelete"), params: idParams, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      const id = Number(request.params.id);
      if (!(await deps.subscribers.remove(id, deps.now()))) throw apiError("subscriber_not_found");
      request.log.info({ subscriptionId: id }, "subscription removed by an operator");
      return reply.code(204).send(null);
    },
  );

  // Counts by channel and by browser, one table: kind, name, subscribers.
  app.get(
    API_ROUTES.subscribersCsv,
    { onRequest: requireAdmin, schema: { operationId: "exportSubscribers", ...doc("api:routes.subscribersCsv"), produces: ["text/csv"], response: answers({ 200: textResponse("text/csv", t("api:responses.csv")) }) } },
    async (_request, reply) => {
      const h = (key: string) => t(`api:csv.${key}`);
      const channels = await deps.channels.list();
      const browsers = [...(await countByBrowser(deps.subscribers)).entries()].sort((a, b) => b[1] - a[1]);
      const total = browsers.reduce((sum, [, n]) => sum + n, 0);
      const csv = toCsv([
        [h("kind"), h("name"), h("subscribers")],
        [h("total"), h("total"), total],
        ...channels.map((c) => [h("channel"), c.name, c.subscribers]),
        ...browsers.map(([browser, n]) => [h("browser"), browser ?? h("unknownBrowser"), n]),
      ]);
      return reply
        .header("content-type", CSV_CONTENT_TYPE)
        .header("content-disposition", 'attachment; filename="sino-inscritos.csv"')
        .send(UTF8_BOM + csv);
    },
  );
}
