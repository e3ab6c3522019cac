import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  eraseMyDataRequestSchema,
  erasureResponseSchema,
  myDataRequestSchema,
  myDataResponseSchema,
  personExportResponseSchema,
  personParamsSchema,
  subscriptionExportResponseSchema,
  subscriptionIdParamsSchema,
} from "../../../shared/api/privacy.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { erasureCountsOf, type PersonalDataStore } from "../../../store/personal-data.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { presentPersonData, presentSubscriptionData } from "../../presenters/personal-data.js";
import { requireJson } from "../../require-json.js";
import { SUBSCRIPTION_BODY_LIMIT } from "../subscriptions/schema.js";
import { answers, operatorDocs, publicDocs } from "../route-docs.js";
import { proofOf, refuseProof } from "../proof-of-possession.js";

export interface PrivacyRoutesDeps {
  readonly personalData: PersonalDataStore;
  readonly translator: Translator;
  readonly now: () => number;
}

/**
 * The subscriber's rights from the bell (LGPD Art. 18), public with proof of possession like the
 * other preference routes: POST /subscriptions/data answers "Meus dados", DELETE erases. Registered
 * in the public API's context (CORS for registered sites).
 */
export function registerSubscriberPrivacyRoutes(app: FastifyInstance, deps: PrivacyRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = publicDocs(deps.translator);

  routes.post(
    API_ROUTES.subscriptionData,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "exportMyData", ...doc("privacy:api.exportMine"), body: myDataRequestSchema, response: answers({ 200: myDataResponseSchema }) },
    },
    async (request) => {
      const result = await deps.personalData.exportWithProof(proofOf(request.body));
      if (result.outcome !== "ok") refuseProof(result.outcome);
      request.log.info({ subscriptionId: result.value.subscription.id }, "subscriber exported their data");
      return { exportedAt: new Date(deps.now()).toISOString(), data: presentSubscriptionData(result.value) };
    },
  );

  routes.delete(
    API_ROUTES.subscriptionData,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "eraseMyData", ...doc("privacy:api.eraseMine"), body: eraseMyDataRequestSchema, response: answers({ 200: erasureResponseSchema }) },
    },
    async (request) => {
      const result = await deps.personalData.eraseWithProof(proofOf(request.body), deps.now());
      if (result.outcome !== "ok") refuseProof(result.outcome);
      // Logged without any personal data: no id, only the counts.
      request.log.info({ erased: result.value }, "subscriber erased their data");
      return { erased: result.value };
    },
  );
}

export interface OperatorPrivacyRoutesDeps extends PrivacyRoutesDeps {
  readonly authenticator: Authenticator;
}

/** The operator's side (admins): export and erase by subscription id or by the host app's user id. */
export function registerOperatorPrivacyRoutes(app: FastifyInstance, deps: OperatorPrivacyRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "privacy:api.tag");
  const { requireAdmin } = deps.authenticator;
  const bySubscription = `${API_ROUTES.privacy}/subscriptions/:subscriptionId`;
  const byPerson = `${API_ROUTES.privacy}/people/:userId`;
  const exportedAt = () => new Date(deps.now()).toISOString();

  routes.get(
    bySubscription,
    { onRequest: requireAdmin, schema: { operationId: "exportSubscriptionData", ...doc("privacy:api.exportSubscription"), params: subscriptionIdParamsSchema, response: answers({ 200: subscriptionExportResponseSchema }) } },
    async (request) => {
      const data = await deps.personalData.exportSubscription(Number(request.params.subscriptionId));
      if (data === undefined) throw apiError("subscription_not_found");
      return { exportedAt: exportedAt(), counts: erasureCountsOf(data), data: presentSubscriptionData(data) };
    },
  );

  routes.delete(
    bySubscription,
    { onRequest: requireAdmin, schema: { operationId: "eraseSubscriptionData", ...doc("privacy:api.eraseSubscription"), params: subscriptionIdParamsSchema, response: answers({ 200: erasureResponseSchema }) } },
    async (request) => {
      const erased = await deps.personalData.eraseSubscription(Number(request.params.subscriptionId), "operator", deps.now());
      if (erased === undefined) throw apiError("subscription_not_found");
      request.log.info({ erased }, "operator erased a subscription's data");
      return { erased };
    },
  );

  routes.get(
    byPerson,
    { onRequest: requireAdmin, schema: { operationId: "exportPersonData", ...doc("privacy:api.exportPerson"), params: personParamsSchema, response: answers({ 200: personExportResponseSchema }) } },
    async (request) => {
      const data = await deps.personalData.exportPerson(request.params.userId);
      if (data === undefined) throw apiError("person_not_found");
      return { exportedAt: exportedAt(), counts: erasureCountsOf(data), data: presentPersonData(data) };
    },
  );

  routes.delete(
    byPerson,
    { onRequest: requireAdmin, schema: { operationId: "erasePersonData", ...doc("privacy:api.erasePerson"), params: personParamsSchema, response: answers({ 200: erasureResponseSchema }) } },
    async (request) => {
      const erased = await deps.personalData.erasePerson(request.params.userId, "operator", deps.now());
      if (erased === undefined) throw apiError("person_not_found");
      request.log.info({ erased }, "operator erased a person's data");
      return { erased };
    },
  );
}
