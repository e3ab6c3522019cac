import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { checkAuth } from "../../../push/key-policy.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { visitorTagsRequestSchema } from "../../../shared/api/subscriptions.js";
import { tagsResponseSchema, type TagsResponse } from "../../../shared/api/tags.js";
import type { TagsRepository } from "../../../store/tags-repository.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { requireJson } from "../../require-json.js";
import { TAGGED_BODY_LIMIT } from "./schema.js";
import { answers } from "../route-docs.js";

export interface SubscriptionTagsRouteDeps {
  readonly tags: Pick<TagsRepository, "mergeVisitorTagsWithProof">;
  readonly translator: Translator;
  readonly now: () => number;
}

/**
 * PUT /subscriptions/tags: the page (`Sino.tag`, `useSino().tag`) merges visitor tags on its own
 * subscription, proving possession like the channel choice. Visitor tags are the page's word, not
 * the host's: they never reach a person's (trusted) tags, and a site may refuse them.
 */
export function registerSubscriptionTagsRoute(app: FastifyInstance, deps: SubscriptionTagsRouteDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().put(
    API_ROUTES.subscriptionTags,
    {
      bodyLimit: TAGGED_BODY_LIMIT,
      onRequest: requireJson,
      schema: {
        operationId: "setSubscriptionTags",
        security: [],
        summary: t("api:routes.subscriptionTags"),
        tags: [t("api:tags.public")],
        body: visitorTagsRequestSchema,
        response: answers({ 200: tagsResponseSchema }),
      },
    },
    async (request): Promise<TagsResponse> => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      const result = await deps.tags.mergeVisitorTagsWithProof({ endpoint: body.endpoint, auth: auth.value }, body.tags, deps.now());
      switch (result.outcome) {
        case "not_found":
          throw apiError("subscription_not_found", "endpoint");
        case "auth_mismatch":
          throw apiError("subscription_auth_mismatch", "auth");
        case "visitor_tags_disabled":
          throw apiError("visitor_tags_disabled");
        case "too_many_tags":
          throw apiError("too_many_tags", "tags");
        case "changed":
          request.log.info({ subscriptionId: result.subscriptionId, tags: Object.keys(result.tags).length }, "visitor tags set");
          return { tags: result.tags };
      }
    },
  );
}
