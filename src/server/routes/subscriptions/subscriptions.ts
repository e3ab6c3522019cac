import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { checkEndpoint, type EndpointPolicy } from "../../../push/endpoint-policy.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  registerSubscriptionResponseSchema,
  subscriptionChannelsResponseSchema,
  type RegisterSubscriptionResponse,
} from "../../../shared/api/subscriptions.js";
import type { SubscriptionChannelsRepository } from "../../../store/subscription-channels-repository.js";
import type { SubscriptionsRepository } from "../../../store/subscriptions-repository.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { apiErrorSchema, noContentSchema } from "../../openapi.js";
import { presentSubscription } from "../../presenters/subscription.js";
import { requireJson } from "../../require-json.js";
import {
  MAX_USER_AGENT_LENGTH,
  SUBSCRIPTION_BODY_LIMIT,
  registerSubscriptionBody,
  removeSubscriptionBody,
  subscriptionChannelsBody,
} from "./schema.js";
import { checkAuth, checkP256dh } from "../../../push/key-policy.js";

export interface SubscriptionRoutesDeps {
  readonly subscriptions: SubscriptionsRepository;
  readonly subscriptionChannels: SubscriptionChannelsRepository;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannelsPerSubscription: number;
  readonly endpointPolicy: EndpointPolicy;
  readonly translator: Translator;
  readonly now: () => number;
}

export function registerSubscriptionRoutes(app: FastifyInstance, deps: SubscriptionRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = [t("api:tags.public")];

  // POST: register a subscription; idempotent on the endpoint (201 new, 200 already known).
  routes.post(
    API_ROUTES.subscriptions,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: {
        summary: t("api:routes.subscribe"),
        tags,
        body: registerSubscriptionBody,
        response: { 200: registerSubscriptionResponseSchema, 201: registerSubscriptionResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const endpoint = checkEndpoint(body.endpoint, deps.endpointPolicy);
      if (!endpoint.ok) throw apiError(endpoint.code, "endpoint");
      const p256dh = checkP256dh(body.keys.p256dh);
      if (!p256dh.ok) throw apiError(p256dh.code, "keys.p256dh");
      const auth = checkAuth(body.keys.auth);
      if (!auth.ok) throw apiError(auth.code, "keys.auth");

      // pushsubscriptionchange / key rotation: with `previous` the browser proves it held the old
      // subscription, so the subscriber keeps their channels (the store moves them).
      const result = await deps.subscriptions.register(
        { endpoint: endpoint.endpoint, p256dh: p256dh.value, auth: auth.value, userAgent: userAgentOf(request), previous: body.previous },
        deps.now(),
      );
      // The endpoint already belongs to a browser holding another auth secret: replacing its keys
      // would silently cut that browser off, and knowing an endpoint must not be enough for that.
      if (result.outcome === "auth_mismatch") throw apiError("subscription_auth_mismatch", "keys.auth");
      request.log.info(
        { subscriptionId: result.subscription.id, pushHost: endpoint.url.host, outcome: result.outcome, previousMoved: result.previousMoved },
        "subscription registered",
      );
      const response: RegisterSubscriptionResponse = { subscription: presentSubscription(result.subscription, result.channels) };
      return reply.code(result.outcome === "created" ? 201 : 200).send(response);
    },
  );

  registerChannelChoiceRoute(app, deps);

  // DELETE: remove a subscription. The auth secret is the proof of possession (only the browser
  // and this server know it); the endpoint alone is not enough.
  routes.delete(
    API_ROUTES.subscriptions,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: { summary: t("api:routes.unsubscribe"), tags, body: removeSubscriptionBody, response: { 204: noContentSchema, "4xx": apiErrorSchema } },
    },
    async (request, reply) => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");

      const result = await deps.subscriptions.removeWithProof(body.endpoint, auth.value, deps.now());
      if (result === "not_found") throw apiError("subscription_not_found", "endpoint");
      if (result === "auth_mismatch") throw apiError("subscription_auth_mismatch", "auth");
      request.log.info("subscription removed");
      return reply.code(204).send(null);
    },
  );
}

/**
 * PUT /subscriptions/channels: the subscriber's choice, stored against the subscription with proof
 * of possession (endpoint + auth secret), all or nothing.
 */
function registerChannelChoiceRoute(app: FastifyInstance, deps: SubscriptionRoutesDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().put(
    API_ROUTES.subscriptionChannels,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: {
        summary: t("api:routes.subscriptionChannels"),
        tags: [t("api:tags.public")],
        body: subscriptionChannelsBody,
        response: { 200: subscriptionChannelsResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request) => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      const result = await deps.subscriptionChannels.replaceWithProof(
        { endpoint: body.endpoint, auth: auth.value },
        body.channels,
        deps.maxChannelsPerSubscription,
      );
      switch (result.outcome) {
        case "subscription_not_found":
          throw apiError("subscription_not_found", "endpoint");
        case "auth_mismatch":
          throw apiError("subscription_auth_mismatch", "auth");
        case "channel_not_found":
          throw apiError("channel_not_found", "channels");
        case "too_many_channels":
          throw apiError("too_many_channels", "channels");
        case "replaced":
          request.log.info({ channels: result.channels.length }, "subscription channels chosen");
          return { channels: result.channels };
      }
    },
  );
}

function userAgentOf(request: FastifyRequest): string | null {
  const ua = request.headers["user-agent"];
  if (ua === undefined || ua === "") return null;
  return ua.slice(0, MAX_USER_AGENT_LENGTH);
}
