import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  TOKEN_SECRET_PREFIX,
  createTokenRequestSchema,
  createTokenResponseSchema,
  tokensResponseSchema,
} from "../../../shared/api/tokens.js";
import { actingUser } from "../../auth/principal.js";
import { newSecret, sha256Hex } from "../../auth/secrets.js";
import { apiError } from "../../errors.js";
import { noContentSchema } from "../../openapi.js";
import { presentApiToken } from "../../presenters/api-token.js";
import { requireJson } from "../../require-json.js";
import type { AuthRoutesDeps } from "../auth-deps.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

const tokenParams = idParamsOf("token_not_found");

/** `sino_` and 7 characters of the secret: enough to tell tokens apart, 42 bits short of useful. */
const PREFIX_LENGTH = TOKEN_SECRET_PREFIX.length + 7;

/** API tokens for scripts: admins only. */
export function registerTokenRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const requireAdmin = deps.authenticator.requireAdmin;
  const doc = operatorDocs(deps.translator, "api:tags.tokens");

  routes.get(
    API_ROUTES.tokens,
    { onRequest: requireAdmin, schema: { operationId: "listTokens", ...doc("api:routes.tokensList"), response: answers({ 200: tokensResponseSchema }) } },
    async () => ({ tokens: (await deps.tokens.list()).map(presentApiToken) }),
  );

  routes.post(
    API_ROUTES.tokens,
    {
      onRequest: [requireAdmin, requireJson],
      schema: {
        operationId: "createToken",
        ...doc("api:routes.tokensCreate"),
        body: createTokenRequestSchema,
        response: answers({ 201: createTokenResponseSchema }),
      },
    },
    async (request, reply) => {
      const secret = `${TOKEN_SECRET_PREFIX}${newSecret(32)}`;
      const creator = actingUser(request.principal!);
      const token = await deps.tokens.create(
        {
          name: request.body.name,
          scope: request.body.scope,
          prefix: secret.slice(0, PREFIX_LENGTH),
          secretHash: sha256Hex(secret),
          createdById: creator.id,
          createdByName: creator.name,
        },
        deps.now(),
      );
      request.log.info({ tokenId: token.id, scope: token.scope }, "api token created");
      return reply.code(201).header("cache-control", "no-store").send({ token: presentApiToken(token), secret });
    },
  );

  routes.delete(
    `${API_ROUTES.tokens}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "revokeToken", ...doc("api:routes.tokensRevoke"), params: tokenParams, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      const id = Number(request.params.id);
      if ((await deps.tokens.revoke(id, deps.now())) === "not_found") throw apiError("token_not_found");
      request.log.info({ tokenId: id }, "api token revoked");
      return reply.code(204).send(null);
    },
  );
}
