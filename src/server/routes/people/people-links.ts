import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { userIdParamsSchema } from "../../../shared/api/people.js";
import { personSubscriptionRequestSchema, subscriptionResponseSchema, type SubscriptionResponse } from "../../../shared/api/subscriptions.js";
import type { SubscriptionsRepository } from "../../../store/subscriptions-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { roleOf } from "../../auth/principal.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { presentSubscription } from "../../presenters/subscription.js";
import { requireJson } from "../../require-json.js";
import { answers, operatorDocs } from "../route-docs.js";

export interface PeopleLinkRoutesDeps {
  readonly subscriptions: Pick<SubscriptionsRepository, "linkPerson" | "unlinkPerson">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

/**
 * The integrator's server links a subscription it knows (the endpoint its page handed it, as the
 * seed's app does after `setToken`) to one of its people, or unlinks it. No signature: holding a
 * token is the proof. Any API token (publish or admin scope) may, as may a signed-in admin; a
 * signed-in publisher may not (the Painel never needs to, and people are the admins' business).
 */
export function registerPeopleLinkRoutes(app: FastifyInstance, deps: PeopleLinkRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const path = `${API_ROUTES.people}/:userId/subscriptions`;
  const doc = operatorDocs(deps.translator, "api:tags.people");
  const schema = { params: userIdParamsSchema, body: personSubscriptionRequestSchema, response: answers({ 200: subscriptionResponseSchema }) };

  async function requireLinker(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const principal = await deps.authenticator.authenticate(request, reply);
    if (principal.kind === "session" && roleOf(principal) !== "admin") throw apiError("forbidden");
  }

  routes.put(path, { onRequest: [requireLinker, requireJson], schema: { operationId: "linkPersonSubscription", ...doc("api:routes.personSubscriptionLink"), ...schema } }, async (request): Promise<SubscriptionResponse> => {
    const result = await deps.subscriptions.linkPerson(request.body.endpoint, request.params.userId, deps.now());
    if (result.outcome === "not_found") throw apiError("subscription_not_found", "endpoint");
    request.log.info({ subscriptionId: result.subscription.id }, "subscription linked to a person");
    return { subscription: presentSubscription(result.subscription, result.channels) };
  });

  routes.delete(path, { onRequest: [requireLinker, requireJson], schema: { operationId: "unlinkPersonSubscription", ...doc("api:routes.personSubscriptionUnlink"), ...schema } }, async (request): Promise<SubscriptionResponse> => {
    const result = await deps.subscriptions.unlinkPerson(request.body.endpoint, request.params.userId, deps.now());
    if (result.outcome === "not_found") throw apiError("subscription_not_found", "endpoint");
    request.log.info({ subscriptionId: result.subscription.id }, "subscription unlinked from a person");
    return { subscription: presentSubscription(result.subscription, result.channels) };
  });
}
