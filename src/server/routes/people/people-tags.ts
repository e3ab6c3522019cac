import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { userIdParamsSchema } from "../../../shared/api/people.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  bulkTagsRequestSchema,
  bulkTagsResponseSchema,
  personTagParamsSchema,
  personTagsPatchSchema,
  personTagsRequestSchema,
  tagsResponseSchema,
  TAG_LIMITS,
  type TagsResponse,
} from "../../../shared/api/tags.js";
import type { TagsPatch } from "../../../shared/api/tag-rule.js";
import type { TagsChanged, TagsRepository, TooManyTags } from "../../../store/tags-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { apiErrorSchema, noContentSchema } from "../../openapi.js";
import { requireJson } from "../../require-json.js";
import { answers, operatorDocs } from "../route-docs.js";

export interface PeopleTagsRoutesDeps {
  readonly tags: TagsRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

/** One person's tags are at most 100 × (64 + 255 characters); 160 KiB leaves room for JSON and UTF-8. */
const PERSON_TAGS_BODY_LIMIT = 160 * 1024;
/** 10,000 people with a few tags each; the count and each item are checked by the schema. */
const BULK_TAGS_BODY_LIMIT = 16 * 1024 * 1024;

/**
 * Trusted tags, set by the host's server: a signed-in admin or an admin-scope API token (tags
 * decide who receives what, so they are the admins' business, like the people pages). A person
 * may be tagged before any browser of theirs subscribes; reading an untagged person gives `{}`.
 */
export function registerPeopleTagsRoutes(app: FastifyInstance, deps: PeopleTagsRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.people");
  const { requireAdmin } = deps.authenticator;
  const path = `${API_ROUTES.people}/:userId/tags`;
  const response = { 200: tagsResponseSchema, "4xx": apiErrorSchema };
  const answer = (result: TagsChanged | TooManyTags): TagsResponse => {
    if (result.outcome === "too_many_tags") throw apiError("too_many_tags", "tags");
    return { tags: result.tags };
  };

  routes.get(path, { onRequest: requireAdmin, schema: { operationId: "getPersonTags", ...doc("api:routes.peopleTagsGet"), params: userIdParamsSchema, response } }, async (request) => ({
    tags: await deps.tags.personTags(request.params.userId),
  }));

  routes.put(
    path,
    {
      bodyLimit: PERSON_TAGS_BODY_LIMIT,
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "replacePersonTags", ...doc("api:routes.peopleTagsReplace"), params: userIdParamsSchema, body: personTagsRequestSchema, response },
    },
    async (request) => {
      const result = answer(await deps.tags.replacePersonTags(request.params.userId, request.body.tags, deps.now()));
      request.log.info({ tags: Object.keys(result.tags).length }, "person tags replaced");
      return result;
    },
  );

  routes.patch(
    path,
    {
      bodyLimit: PERSON_TAGS_BODY_LIMIT,
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "updatePersonTags", ...doc("api:routes.peopleTagsMerge"), params: userIdParamsSchema, body: personTagsPatchSchema, response },
    },
    async (request) => {
      const result = answer(await deps.tags.mergePersonTags(request.params.userId, request.body.tags as TagsPatch, deps.now()));
      request.log.info({ tags: Object.keys(result.tags).length }, "person tags merged");
      return result;
    },
  );

  routes.delete(path, { onRequest: requireAdmin, schema: { operationId: "clearPersonTags", ...doc("api:routes.peopleTagsClear"), params: userIdParamsSchema, response: answers({ 204: noContentSchema }) } }, async (request, reply) => {
    const removed = await deps.tags.clearPersonTags(request.params.userId);
    request.log.info({ removed }, "person tags cleared");
    return reply.code(204).send(null);
  });

  routes.delete(
    `${path}/:key`,
    { onRequest: requireAdmin, schema: { operationId: "deletePersonTag", ...doc("api:routes.peopleTagDelete"), params: personTagParamsSchema, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      // Removing a tag that is not there leaves things as asked: 204 as well (idempotent).
      await deps.tags.removePersonTag(request.params.userId, request.params.key);
      return reply.code(204).send(null);
    },
  );

  routes.post(
    API_ROUTES.peopleTags,
    {
      bodyLimit: BULK_TAGS_BODY_LIMIT,
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "tagPeople", ...doc("api:routes.peopleTagsBulk"), body: bulkTagsRequestSchema, response: answers({ 200: bulkTagsResponseSchema }) },
    },
    async (request) => {
      const { people, mode } = request.body;
      const result = await deps.tags.bulkPersonTags(
        people.map((p) => ({ personId: p.userId, tags: p.tags })),
        mode,
        deps.now(),
      );
      if ("outcome" in result) throw apiError("too_many_tags", result.index === undefined ? "people" : `people.${result.index}.tags`);
      request.log.info({ people: result.updated, mode, limit: TAG_LIMITS.bulkPeople }, "people tagged in bulk");
      return result;
    },
  );
}
