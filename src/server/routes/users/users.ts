import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  createUserRequestSchema,
  passwordResetResponseSchema,
  updateUserRequestSchema,
  userResponseSchema,
  usersResponseSchema,
} from "../../../shared/api/users.js";
import { resetPassword } from "../../auth/password-reset.js";
import { actingUser } from "../../auth/principal.js";
import { apiError } from "../../errors.js";
import { noContentSchema } from "../../openapi.js";
import { presentUser } from "../../presenters/user.js";
import { requireJson } from "../../require-json.js";
import type { AuthRoutesDeps } from "../auth-deps.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

const userParams = idParamsOf("user_not_found");

/** Managing operators: admins only (an admin session or an admin-scope token). */
export function registerUserRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const requireAdmin = deps.authenticator.requireAdmin;
  const doc = operatorDocs(deps.translator, "api:tags.users");
  const byId = `${API_ROUTES.users}/:id`;

  routes.get(
    API_ROUTES.users,
    { onRequest: requireAdmin, schema: { operationId: "listUsers", ...doc("api:routes.usersList"), response: answers({ 200: usersResponseSchema }) } },
    async () => ({ users: (await deps.users.list()).map(presentUser) }),
  );

  routes.post(
    API_ROUTES.users,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "createUser", ...doc("api:routes.usersCreate"), body: createUserRequestSchema, response: answers({ 201: userResponseSchema }) },
    },
    async (request, reply) => {
      const { name, email, password, role, mustChangePassword } = request.body;
      if (deps.commonPasswords.has(password)) throw apiError("password_too_common", "password");
      const result = await deps.users.create(
        { name, email, role, passwordHash: await deps.hasher.hash(password), mustChangePassword: mustChangePassword === true },
        deps.now(),
      );
      if (result.outcome === "email_taken") throw apiError("email_taken", "email");
      request.log.info({ userId: result.user.id, role }, "user created");
      return reply.code(201).send({ user: presentUser(result.user) });
    },
  );

  routes.patch(
    byId,
    {
      onRequest: [requireAdmin, requireJson],
      schema: {
        operationId: "updateUser",
        ...doc("api:routes.usersUpdate"),
        params: userParams,
        body: updateUserRequestSchema,
        response: answers({ 200: userResponseSchema }),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const { name, role, password } = request.body;
      if (password !== undefined && deps.commonPasswords.has(password)) throw apiError("password_too_common", "password");
      const principal = request.principal;
      const self = principal?.kind === "session" && principal.user.id === id;
      const result = await deps.users.update(
        id,
        {
          ...(name === undefined ? {} : { name }),
          ...(role === undefined ? {} : { role }),
          // A password an admin sets for someone else is one the admin knows: like a reset's, its
          // owner must replace it at the next sign-in.
          ...(password === undefined ? {} : { passwordHash: await deps.hasher.hash(password), mustChangePassword: !self }),
        },
        deps.now(),
      );
      if (result.outcome === "not_found") throw apiError("user_not_found");
      if (result.outcome === "last_admin") throw apiError("last_admin", "role");
      if (password !== undefined) {
        // A new password ends the user's other sessions (OWASP Session Management: renew on
        // privilege change); the admin changing their own keeps the session they are using.
        const keep = self && principal?.kind === "session" ? principal.sessionIdHash : undefined;
        await deps.sessions.removeForUser(id, keep);
      }
      request.log.info({ userId: id, fields: Object.keys(request.body) }, "user updated");
      return { user: presentUser(result.user) };
    },
  );

  routes.post(
    `${byId}/password-reset`,
    {
      onRequest: requireAdmin,
      schema: {
        ...doc("api:routes.resetUserPassword"),
        operationId: "resetUserPassword",
        params: userParams,
        response: answers({ 200: passwordResetResponseSchema }),
      },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const principal = request.principal;
      if (principal?.kind === "session" && principal.user.id === id) throw apiError("cannot_reset_own_password");
      const reset = await resetPassword(deps, id, deps.now());
      if (reset === undefined) throw apiError("user_not_found");
      request.log.info({ userId: id, by: principal === null ? undefined : actingUser(principal).id }, "password reset by an admin");
      // The temporary password is in this answer only: no cache may keep it.
      return reply.header("cache-control", "no-store").send({ user: presentUser(reset.user), temporaryPassword: reset.temporaryPassword });
    },
  );

  routes.delete(
    byId,
    { onRequest: requireAdmin, schema: { operationId: "deleteUser", ...doc("api:routes.usersDelete"), params: userParams, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      const id = Number(request.params.id);
      const principal = request.principal;
      if (principal?.kind === "session" && principal.user.id === id) throw apiError("cannot_delete_self");
      const result = await deps.users.remove(id);
      if (result === "not_found") throw apiError("user_not_found");
      if (result === "last_admin") throw apiError("last_admin");
      request.log.info({ userId: id }, "user deleted");
      return reply.code(204).send(null);
    },
  );
}
