import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import type { FastifyInstance } from "fastify";
import { createJsonSchemaTransform, jsonSchemaTransformObject } from "fastify-type-provider-zod";
import { z } from "zod";
import { SESSION_COOKIE } from "../shared/api/auth.js";
import { API_ROUTES } from "../shared/api/routes.js";
import { ERROR_CODES } from "../shared/errors.js";
import type { Translator } from "./i18n.js";

/** The body of every error answer, as documented (and checked on the way out) for the API's routes. */
export const apiErrorSchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES as [string, ...string[]]),
    message: z.string(),
    field: z.string().optional(),
    position: z.number().int().optional(),
  }),
});

/** A 204 answer: no body. */
export const noContentSchema = z.null();

/** Route `security` for operator routes: the Painel's session cookie or an API token. */
export const OPERATOR_SECURITY: ReadonlyArray<Readonly<Record<string, readonly string[]>>> = [{ session: [] }, { bearer: [] }];

const DOCS_ROUTES = ["", "/", "/json", "/yaml", "/static/*", "/uiConfig", "/initOAuth", "/*"].map((p) => `${API_ROUTES.docs}${p}`);

/**
 * The OpenAPI document is generated from the routes' zod schemas (the same ones that validate
 * requests), so it cannot drift from what the server accepts. Register BEFORE the routes:
 * @fastify/swagger collects them as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, translator: Translator, sessionCookie: string = SESSION_COOKIE): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: "3.1.0",
      info: { title: "Sino", description: translator.t("api:description"), version: "1" },
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: sessionCookie, description: translator.t("api:security.session") },
          bearer: { type: "http", scheme: "bearer", description: translator.t("api:security.bearer") },
        },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [...DOCS_ROUTES, API_ROUTES.openapi] }),
    transformObject: jsonSchemaTransformObject,
  });
}

/** GET /api/v1/openapi.json and the docs page at /api/docs (Swagger UI's files, served from node_modules: no CDN). */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  app.get(API_ROUTES.openapi, { schema: { hide: true } }, async (_request, reply) => reply.header("cache-control", "no-cache").send(app.swagger()));
  await app.register(fastifySwaggerUi, {
    routePrefix: API_ROUTES.docs,
    uiConfig: { docExpansion: "list", deepLinking: true, persistAuthorization: false },
  });
}
