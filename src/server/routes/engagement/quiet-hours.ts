import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { ENGAGEMENT_ROUTES, quietHoursLookupRequestSchema, quietHoursResponseSchema, setQuietHoursRequestSchema, type QuietHoursResponse } from "../../../shared/api/engagement.js";
import type { EngagementRepository, QuietHoursResult } from "../../../store/engagement-repository.js";
import type { Translator } from "../../i18n.js";
import { answers, publicDocs } from "../route-docs.js";
import { proofOf, refuseProof } from "../proof-of-possession.js";
import { requireJson } from "../../require-json.js";

export interface QuietHoursRoutesDeps {
  readonly engagement: Pick<EngagementRepository, "quietHoursWithProof" | "setQuietHoursWithProof">;
  readonly translator: Translator;
}

/** A proof and a range are a few short strings. */
const QUIET_HOURS_BODY_LIMIT = 4096;

/**
 * The subscriber's own quiet hours ("Não me avise entre 22h e 7h"), from the bell's panel: read
 * and set with proof of possession (endpoint + auth secret), like the channel choice. Delivery
 * (the local-time gate) holds marketing pushes inside them, in the subscriber's own time zone.
 */
export function registerQuietHoursRoutes(app: FastifyInstance, deps: QuietHoursRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = publicDocs(deps.translator);
  const response = answers({ 200: quietHoursResponseSchema });

  routes.post(
    ENGAGEMENT_ROUTES.quietHoursLookup,
    {
      bodyLimit: QUIET_HOURS_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "getSubscriptionQuietHours", ...doc("engagement:api.quietHoursRead"), body: quietHoursLookupRequestSchema, response },
    },
    async (request): Promise<QuietHoursResponse> => {
      return answer(await deps.engagement.quietHoursWithProof(proofOf(request.body)));
    },
  );

  routes.put(
    ENGAGEMENT_ROUTES.quietHours,
    {
      bodyLimit: QUIET_HOURS_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "setSubscriptionQuietHours", ...doc("engagement:api.quietHoursSet"), body: setQuietHoursRequestSchema, response },
    },
    async (request): Promise<QuietHoursResponse> => {
      const result = answer(await deps.engagement.setQuietHoursWithProof(proofOf(request.body), request.body.quietHours));
      request.log.info({ quietHours: result.quietHours !== null }, "subscription quiet hours set");
      return result;
    },
  );
}

function answer(result: QuietHoursResult): QuietHoursResponse {
  if (result.outcome === "not_found" || result.outcome === "auth_mismatch") refuseProof(result.outcome);
  return { quietHours: result.quietHours };
}
