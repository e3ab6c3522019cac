import fastifySwagger from "@fastify/swagger";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createJsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { SESSION_COOKIE } from "../shared/api/auth.js";
import { API_ROUTES } from "../shared/api/routes.js";
import { ERROR_CODES } from "../shared/errors.js";
import type { Translator } from "./i18n.js";
import { renderApiDocs, type OpenApiDocumentForDocs } from "./api-docs/render-api-docs.js";

/** The body of every error answer, as documented (and checked on the way out) for the API's routes. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [string, ...string[]]),
    message: z.string(),
    field: z.string().optional(),
    position: z.number().int().optional(),
    /** `payload_too_large` of a notification: the encrypted push's size in bytes, the most one push holds, and how much over. */
    details: z.object({ bytes: z.number().int(), max: z.number().int(), over: z.number().int() }).optional(),
  }),
});

/** A 204 answer: no body. */
export const noContentSchema = z.null();

/** Route `security` for operator routes: the Painel's session cookie or an API token. */
export const OPERATOR_SECURITY: ReadonlyArray<Readonly<Record<string, readonly string[]>>> = [{ session: [] }, { bearer: [] }];

/**
 * A 200 answer that is not JSON (a CSV file, a Server-Sent Events stream), documented by its media
 * type so generated clients know what they get. Its zod schema is a string: Fastify only
 * serializes object payloads, and these routes send text or take the socket over.
 */
export function textResponse(mediaType: "text/csv" | "text/event-stream", description: string) {
  return { description, content: { [mediaType]: { schema: z.string() } } };
}

/** pt-BR descriptions for answers the routes do not describe themselves (the generator says "Default Response"). */
const RESPONSE_KEYS: Readonly<Record<string, string>> = {
  "200": "api:responses.ok",
  "201": "api:responses.created",
  "202": "api:responses.accepted",
  "204": "api:responses.noContent",
  "4XX": "api:responses.clientError",
  "503": "api:responses.unavailable",
};

type MediaResponse = { description?: string; content: Record<string, { schema: z.ZodType }> };

function isMediaResponse(value: unknown): value is MediaResponse {
  return typeof value === "object" && value !== null && !(value instanceof z.ZodType) && "content" in value;
}

/**
 * The OpenAPI document is generated from the routes' zod schemas (the same ones that validate
 * requests), so it cannot drift from what the server accepts. Register BEFORE the routes:
 * @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, translator: Translator, publicUrl: string, sessionCookie: string = SESSION_COOKIE): Promise<void> {
  // Paths start with /api/v1, so the server is the public URL itself (any path in it kept).
  const server = publicUrl.replace(/\/+$/, "");
  const zodTransform = createJsonSchemaTransform({ skipList: [] });
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Sino",
        description: translator.t("api:description"),
        version: "1",
        // The project itself has chosen no licence (package.json is private, no LICENSE file);
        // the API of a self-hosted Sino is offered on the terms of whoever runs it, at its address.
        license: { name: translator.t("api:license"), url: server },
      },
      servers: [{ url: server, description: translator.t("api:servers.public") }],
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: sessionCookie, description: translator.t("api:security.session") },
          bearer: { type: "http", scheme: "bearer", description: translator.t("api:security.bearer") },
        },
      },
    },
    // fastify-type-provider-zod converts zod schemas but not answers given per media type
    // (textResponse): those are converted here and put back beside the others.
    transform: (input) => {
      const response = (input.schema?.response ?? {}) as Record<string, unknown>;
      const byMedia = Object.entries(response).filter(([, value]) => isMediaResponse(value)) as [string, MediaResponse][];
      if (byMedia.length === 0) return zodTransform(input);
      const rest = Object.fromEntries(Object.entries(response).filter(([, value]) => !isMediaResponse(value)));
      const result = zodTransform({ ...input, schema: { ...input.schema, response: rest } });
      const converted = byMedia.map(([status, value]) => [
        status,
        {
          ...(value.description === undefined ? {} : { description: value.description }),
          content: Object.fromEntries(Object.entries(value.content).map(([media, { schema }]) => [media, { schema: mediaSchema(schema) }])),
        },
      ]);
      const schema = result.schema as { response?: Record<string, unknown> };
      return { ...result, schema: { ...schema, response: { ...schema.response, ...Object.fromEntries(converted) } } };
    },
    transformObject: (input) => describeResponses(jsonSchemaTransformObject(input) as OpenApiDocument, translator),
  });
}

function mediaSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...json } = z.toJSONSchema(schema) as Record<string, unknown>;
  return json;
}

interface OpenApiDocument {
  paths?: Record<string, Record<string, { responses?: Record<string, { description?: string }> }>>;
  [key: string]: unknown;
}

/** Replaces the generator's English "Default Response" with a pt-BR description of the status. */
function describeResponses(doc: OpenApiDocument, translator: Translator): OpenApiDocument {
  for (const operations of Object.values(doc.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const key = RESPONSE_KEYS[status];
        if (response.description === "Default Response" && key !== undefined) response.description = translator.t(key);
      }
    }
  }
  return doc;
}

/**
 * GET /api/v1/openapi.json, and the docs page at /api/docs: the same document rendered as one
 * pt-BR HTML page on the server (render-api-docs.ts), built once on its first request (the
 * document is complete only once every route is registered).
 */
export function registerApiDocs(app: FastifyInstance, translator: Translator): void {
  app.get(API_ROUTES.openapi, { schema: { hide: true } }, async (_request, reply) => reply.header("cache-control", "no-cache").send(app.swagger()));
  let page: string | undefined;
  const docsPage = async (_request: FastifyRequest, reply: FastifyReply) => {
    page ??= renderApiDocs(app.swagger() as OpenApiDocumentForDocs, translator, API_ROUTES.openapi);
    return reply.header("cache-control", "no-cache").type("text/html; charset=utf-8").send(page);
  };
  app.get(API_ROUTES.docs, { schema: { hide: true } }, docsPage);
  app.get(`${API_ROUTES.docs}/`, { schema: { hide: true } }, docsPage);
}
