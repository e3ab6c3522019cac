import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { signInRequestSchema } from "../../../shared/api/auth.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { changeOwnPasswordRequestSchema, userResponseSchema } from "../../../shared/api/users.js";
import { createLoginCsrfGuard } from "../../auth/csrf.js";
import { apiError } from "../../errors.js";
import { OPERATOR_SECURITY, noContentSchema } from "../../openapi.js";
import { presentUser } from "../../presenters/user.js";
import { requireJson } from "../../require-json.js";
import type { AuthRoutesDeps } from "../auth-deps.js";
import { answers } from "../route-docs.js";

/** Sign-in, who am I, sign-out: the Painel's session cookie. */
export function registerSessionRoutes(app: FastifyInstance, deps: AuthRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const loginCsrf = createLoginCsrfGuard(deps.publicUrl);
  const tags = [t("api:tags.access")];

  routes.get(
    API_ROUTES.session,
    {
      schema: {
        operationId: "getSession",
        summary: t("api:routes.sessionGet"),
        tags,
        security: [{ session: [] }],
        response: answers({ 200: userResponseSchema }),
      },
    },
    async (request, reply) => {
      // The cookie only: a script's token is not a session, and must not look like one.
      const principal = await deps.authenticator.authenticateSession(request, reply);
      return reply.header("cache-control", "no-store").send({ user: presentUser(principal.user) });
    },
  );

  routes.post(
    API_ROUTES.session,
    {
      onRequest: [requireJson, loginCsrf],
      schema: { operationId: "signIn", security: [], summary: t("api:routes.signIn"), tags, body: signInRequestSchema, response: answers({ 200: userResponseSchema }) },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const address = request.ip;
      const verdict = await deps.throttle.begin(email, address);
      if (!verdict.allowed) {
        reply.header("retry-after", String(verdict.retryAfterSeconds));
        throw apiError("too_many_attempts");
      }
      if (verdict.delayMs > 0) await deps.sleep(verdict.delayMs);

      // An unknown email costs the same argon2 verification as a wrong password, and both get the
      // same answer: neither the text nor the timing tells whether the account exists.
      const user = await deps.users.findByEmail(email);
      const ok = user === undefined ? await deps.hasher.verifyNothing(password) : await deps.hasher.verify(user.passwordHash, password);
      if (user === undefined || !ok) {
        request.log.info("sign-in refused");
        throw apiError("invalid_credentials");
      }
      await deps.throttle.succeeded(email, address);
      await deps.authenticator.startSession(request, reply, user);
      await deps.sessions.removeExpired(deps.now());
      request.log.info({ userId: user.id }, "signed in");
      return reply.header("cache-control", "no-store").send({ user: presentUser(user) });
    },
  );

  routes.put(
    API_ROUTES.sessionPassword,
    {
      onRequest: requireJson,
      schema: {
        operationId: "changeOwnPassword",
        summary: t("api:routes.changeOwnPassword"),
        tags,
        security: [{ session: [] }],
        body: changeOwnPasswordRequestSchema,
        response: answers({ 200: userResponseSchema }),
      },
    },
    async (request, reply) => {
      // The cookie only (a token is not the person who knows the password), and also while the
      // password is a temporary one: changing it is what such a session is for.
      const principal = await deps.authenticator.authenticateSession(request, reply);
      const { user } = principal;
      const { currentPassword, newPassword } = request.body;
      // A stolen session must not become a password oracle: wrong current passwords count against
      // the account and the address exactly like failed sign-ins.
      const verdict = await deps.throttle.begin(user.email, request.ip);
      if (!verdict.allowed) {
        reply.header("retry-after", String(verdict.retryAfterSeconds));
        throw apiError("too_many_attempts");
      }
      if (verdict.delayMs > 0) await deps.sleep(verdict.delayMs);
      if (!(await deps.hasher.verify(user.passwordHash, currentPassword))) {
        request.log.info({ userId: user.id }, "password change refused");
        throw apiError("password_incorrect", "currentPassword");
      }
      await deps.throttle.succeeded(user.email, request.ip);
      if (newPassword === currentPassword) throw apiError("password_unchanged", "newPassword");
      if (deps.commonPasswords.has(newPassword)) throw apiError("password_too_common", "newPassword");
      const result = await deps.users.update(user.id, { passwordHash: await deps.hasher.hash(newPassword), mustChangePassword: false }, deps.now());
      if (result.outcome !== "updated") throw apiError("unauthenticated");
      // OWASP Session Management: a new password ends the account's other sessions; this one stays.
      await deps.sessions.removeForUser(user.id, principal.sessionIdHash);
      request.log.info({ userId: user.id }, "password changed");
      return reply.header("cache-control", "no-store").send({ user: presentUser(result.user) });
    },
  );

  routes.delete(
    API_ROUTES.session,
    { schema: { operationId: "signOut", summary: t("api:routes.signOut"), tags, security: OPERATOR_SECURITY.slice(0, 1), response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      await deps.authenticator.endSession(request, reply);
      return reply.code(204).send(null);
    },
  );
}
