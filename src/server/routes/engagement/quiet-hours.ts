import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { checkAuth } from "../../../push/key-policy.js";
import { ENGAGEMENT_ROUTES, quietHoursLookupRequestSchema, quietHoursResponseSchema, setQuietHoursRequestSchema, type QuietHoursResponse } from "../../../shared/api/engagement.js";
import type { EngagementRepository, QuietHoursResult } from "../../../store/engagement-repository.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { apiErrorSchema } from "../../openapi.js";
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
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = [t("api:tags.public")];
  const response = { 200: quietHoursResponseSchema, "4xx": apiErrorSchema };

  routes.post(
    ENGAGEMENT_ROUTES.quietHoursLookup,
    {
      bodyLimit: QUIET_HOURS_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "getSubscriptionQuietHours", security: [], summary: t("engagement:api.quietHoursRead"), tags, body: quietHoursLookupRequestSchema, response },
    },
    async (request): Promise<QuietHoursResponse> => {
      const auth = checkAuth(request.body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      return answer(await deps.engagement.quietHoursWithProof({ endpoint: request.body.endpoint, auth: auth.value }));
    },
  );

  routes.put(
    ENGAGEMENT_ROUTES.quietHours,
    {
      bodyLimit: QUIET_HOURS_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "setSubscriptionQuietHours", security: [], summary: t("engagement:api.quietHoursSet"), tags, body: setQuietHoursRequestSchema, response },
    },
    async (request): Promise<QuietHoursResponse> => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      const result = answer(await deps.engagement.setQuietHoursWithProof({ endpoint: body.endpoint, auth: auth.value }, body.quietHours));
      request.log.info({ quietHours: result.quietHours !== null }, "subscription quiet hours set");
      return result;
    },
  );
}

function answer(result: QuietHoursResult): QuietHoursResponse {
  if (result.outcome === "not_found") throw apiError("subscription_not_found", "endpoint");
  if (result.outcome === "auth_mismatch") throw apiError("subscription_auth_mismatch", "auth");
  return { quietHours: result.quietHours };
}
