import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { STATS_DEFAULT_DAYS, statsQuerySchema, statsResponseSchema, type StatsResponse } from "../../../shared/api/stats.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import { clickRate } from "../../../store/notification-events-repository.js";
import type { StatsRepository } from "../../../store/stats-repository.js";
import type { SubscribersRepository } from "../../../store/subscribers-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, apiErrorSchema } from "../../openapi.js";
import { countByBrowser } from "../subscribers/subscribers.js";
import { createDayKey, lastDays } from "./day-buckets.js";

export interface StatsRoutesDeps {
  readonly stats: StatsRepository;
  readonly channels: Pick<ChannelsRepository, "list">;
  readonly subscribers: Pick<SubscribersRepository, "countByUserAgent">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
  /** SINO_TIME_ZONE. */
  readonly timeZone: string;
}

/** GET /stats: the charts of Visão geral, by day in the configured time zone. */
export function registerStatsRoutes(app: FastifyInstance, deps: StatsRoutesDeps): void {
  const { t } = deps.translator;
  const dayKey = createDayKey(deps.timeZone);
  app.withTypeProvider<ZodTypeProvider>().get(
    API_ROUTES.stats,
    {
      onRequest: deps.authenticator.requireUser,
      schema: {
        operationId: "getStats",
        summary: t("api:routes.stats"),
        tags: [t("api:tags.stats")],
        security: OPERATOR_SECURITY,
        querystring: statsQuerySchema,
        response: { 200: statsResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request): Promise<StatsResponse> => {
      const { keys, since } = lastDays(deps.now(), request.query.days ?? STATS_DEFAULT_DAYS, dayKey);
      const siteId = request.query.site === undefined ? undefined : Number(request.query.site);
      const [history, sends, allChannels, browsers, onSite] = await Promise.all([
        deps.stats.subscriberHistory(since, siteId),
        deps.stats.notificationsSince(since),
        deps.channels.list(),
        countByBrowser(deps.subscribers, siteId),
        siteId === undefined ? undefined : deps.stats.channelCountsOnSite(siteId),
      ]);
      const channels = onSite === undefined ? allChannels : allChannels.map((c) => ({ ...c, subscribers: onSite.get(c.id) ?? 0 }));

      const tally = (times: number[]) => {
        const byDay = new Map<string, number>();
        for (const time of times) byDay.set(dayKey(time), (byDay.get(dayKey(time)) ?? 0) + 1);
        return byDay;
      };
      const added = tally(history.created);
      const removed = tally(history.removed);
      let total = history.totalBefore;
      const subscribersOverTime = keys.map((date) => {
        const a = added.get(date) ?? 0;
        const r = removed.get(date) ?? 0;
        total += a - r;
        return { date, total, added: a, removed: r };
      });

      const sendDays = new Map<string, { sends: number; accepted: number; clicked: number }>();
      for (const send of sends) {
        const key = dayKey(send.publishedAt);
        const day = sendDays.get(key) ?? { sends: 0, accepted: 0, clicked: 0 };
        sendDays.set(key, { sends: day.sends + 1, accepted: day.accepted + send.accepted, clicked: day.clicked + send.clicked });
      }
      return {
        subscribersOverTime,
        sends: keys.map((date) => {
          const day = sendDays.get(date) ?? { sends: 0, accepted: 0, clicked: 0 };
          return { date, ...day, clickRate: clickRate(day.clicked, day.accepted) };
        }),
        byChannel: channels.map((c) => ({ slug: c.slug, name: c.name, subscribers: c.subscribers })).sort((a, b) => b.subscribers - a.subscribers),
        byBrowser: [...browsers.entries()]
          .map(([browser, subscribers]) => ({ browser: browser ?? t("api:csv.unknownBrowser"), subscribers }))
          .sort((a, b) => b.subscribers - a.subscribers),
      };
    },
  );
}
