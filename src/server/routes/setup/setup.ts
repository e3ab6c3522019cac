import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { setupRequestSchema, setupStatusSchema } from "../../../shared/api/auth.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { userResponseSchema } from "../../../shared/api/users.js";
import { createLoginCsrfGuard } from "../../auth/csrf.js";
import { apiError } from "../../errors.js";
import { presentUser } from "../../presenters/user.js";
import { requireJson } from "../../require-json.js";
import type { AuthRoutesDeps } from "../auth-deps.js";
import { answers } from "../route-docs.js";

/** The one-time set-up of the first admin, offered only while no user exists. */
export function registerSetupRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const loginCsrf = createLoginCsrfGuard(deps.publicUrl);

  routes.get(
    API_ROUTES.setup,
    { schema: { operationId: "getSetupStatus", security: [], summary: t("api:routes.setupStatus"), tags: [t("api:tags.access")], response: answers({ 200: setupStatusSchema }) } },
    async (_request, reply) => reply.header("cache-control", "no-store").send({ needed: (await deps.users.count()) === 0 }),
  );

  routes.post(
    API_ROUTES.setup,
    {
      onRequest: [requireJson, loginCsrf],
      schema: {
        operationId: "createFirstAdmin",
        security: [],
        summary: t("api:routes.setup"),
        tags: [t("api:tags.access")],
        body: setupRequestSchema,
        response: answers({ 201: userResponseSchema }),
      },
    },
    async (request, reply) => {
      // Cheap early answer; the race itself is decided in the repository's transaction.
      if ((await deps.users.count()) > 0) throw apiError("setup_already_done");
      if (deps.commonPasswords.has(request.body.password)) throw apiError("password_too_common", "password");
      const passwordHash = await deps.hasher.hash(request.body.password);
      const result = await deps.users.createFirstAdmin(
        { name: request.body.name, email: request.body.email, passwordHash },
        deps.now(),
      );
      if (result.outcome === "setup_already_done") throw apiError("setup_already_done");
      await deps.authenticator.startSession(request, reply, result.user);
      request.log.info({ userId: result.user.id }, "first admin created");
      return reply.code(201).send({ user: presentUser(result.user) });
    },
  );
}
