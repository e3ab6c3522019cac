import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ENGAGEMENT_ROUTES, engagementQuerySchema, engagementResponseSchema, type EngagementResponse } from "../../../shared/api/engagement.js";
import { utcDay, type EngagementRepository } from "../../../store/engagement-repository.js";
import { DAY_MS } from "../../../store/subscription-activity.js";
import type { Authenticator } from "../../auth/authenticator.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { answers } from "../route-docs.js";

export interface EngagementStatsRoutesDeps {
  readonly engagement: Pick<EngagementRepository, "splitBySite" | "history">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
  /** SINO_SLEEPING_DAYS. */
  readonly sleepingDays: number;
}

const DEFAULT_DAYS = 30;

/**
 * GET /stats/engagement: the active / sleeping split of every site now (one grouped query) and the
 * daily snapshots the worker records (engagement_daily), for the Painel's Sites page.
 */
export function registerEngagementStatsRoutes(app: FastifyInstance, deps: EngagementStatsRoutesDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().get(
    ENGAGEMENT_ROUTES.engagement,
    {
      onRequest: deps.authenticator.requireUser,
      schema: {
        operationId: "getEngagement",
        summary: t("engagement:api.engagement"),
        tags: [t("api:tags.stats")],
        security: OPERATOR_SECURITY,
        querystring: engagementQuerySchema,
        response: answers({ 200: engagementResponseSchema }),
      },
    },
    async (request): Promise<EngagementResponse> => {
      const now = deps.now();
      const siteId = request.query.site === undefined ? undefined : Number(request.query.site);
      const from = utcDay(now - ((request.query.days ?? DEFAULT_DAYS) - 1) * DAY_MS);
      const [split, history] = await Promise.all([deps.engagement.splitBySite(now, deps.sleepingDays), deps.engagement.history(from, siteId)]);
      return {
        sleepingDays: deps.sleepingDays,
        sites: split.filter((s) => siteId === undefined || s.siteId === siteId).map((s) => ({ siteId: String(s.siteId), active: s.active, sleeping: s.sleeping })),
        history,
      };
    },
  );
}
