import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  peopleQuerySchema,
  peopleResponseSchema,
  personDeliveriesQuerySchema,
  personDeliveriesResponseSchema,
  personResponseSchema,
  userIdParamsSchema,
} from "../../../shared/api/people.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { PeopleRepository } from "../../../store/people-repository.js";
import type { TagsRepository } from "../../../store/tags-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { presentPersonDelivery, presentPersonDevice, presentPersonSummary } from "../../presenters/recipient.js";
import { answers, operatorDocs } from "../route-docs.js";
import { pageWindow } from "../page-window.js";

export interface PeopleRoutesDeps {
  readonly people: PeopleRepository;
  readonly tags: Pick<TagsRepository, "personTags" | "subscriptionTagsOf">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  /** SINO_PUBLIC_URL: the built-in site's origin. */
  readonly publicUrl: string;
}

/**
 * The host app's people, for admins: who has devices, which, and what reached them. Named
 * "people" so they never mix with Sino's operators (/users). Never endpoints or keys.
 */
export function registerPeopleRoutes(app: FastifyInstance, deps: PeopleRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.people");
  const { requireAdmin } = deps.authenticator;
  const publicOrigin = new URL(deps.publicUrl).origin;
  const byUserId = `${API_ROUTES.people}/:userId`;

  routes.get(
    API_ROUTES.people,
    { onRequest: requireAdmin, schema: { operationId: "listPeople", ...doc("api:routes.peopleList"), querystring: peopleQuerySchema, response: answers({ 200: peopleResponseSchema }) } },
    async (request) => {
      const { query, page, pageSize } = request.query;
      const result = await deps.people.list({ ...(query === undefined ? {} : { query }), ...pageWindow(page, pageSize) });
      return { people: result.people.map(presentPersonSummary), total: result.total, page, pageSize };
    },
  );

  routes.get(
    byUserId,
    { onRequest: requireAdmin, schema: { operationId: "getPerson", ...doc("api:routes.peopleGet"), params: userIdParamsSchema, response: answers({ 200: personResponseSchema }) } },
    async (request) => {
      const { userId } = request.params;
      const { devices, hasHistory } = await deps.people.find(userId);
      const tags = await deps.tags.personTags(userId);
      // A person who forgot every device still has a history worth reading, and one tagged before
      // any browser of theirs subscribed has tags worth editing.
      if (devices.length === 0 && !hasHistory && Object.keys(tags).length === 0) throw apiError("person_not_found");
      const visitor = await deps.tags.subscriptionTagsOf(devices.map((d) => d.id));
      return { person: { userId, tags, subscriptions: devices.map((d) => presentPersonDevice(d, publicOrigin, visitor.get(d.id))) } };
    },
  );

  routes.get(
    `${byUserId}/notifications`,
    {
      onRequest: requireAdmin,
      schema: {
        operationId: "listPersonNotifications",
        ...doc("api:routes.peopleNotifications"),
        params: userIdParamsSchema,
        querystring: personDeliveriesQuerySchema,
        response: answers({ 200: personDeliveriesResponseSchema }),
      },
    },
    async (request) => {
      const { userId } = request.params;
      const { page, pageSize } = request.query;
      const result = await deps.people.deliveries(userId, pageWindow(page, pageSize));
      if (result.total === 0) {
        const { devices } = await deps.people.find(userId);
        if (devices.length === 0) throw apiError("person_not_found");
      }
      return { deliveries: result.deliveries.map((d) => presentPersonDelivery(d, publicOrigin)), total: result.total, page, pageSize };
    },
  );
}
