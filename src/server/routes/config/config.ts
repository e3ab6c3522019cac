import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { publicConfigSchema, type PublicConfig } from "../../../shared/api/config.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { Translator } from "../../i18n.js";

export interface ConfigRoutesDeps {
  /** Only the public key: the private one never leaves the server. */
  readonly vapidPublicKey: string;
  readonly translator: Translator;
}

export function registerConfigRoutes(app: FastifyInstance, deps: ConfigRoutesDeps): void {
  const { t } = deps.translator;
  const body: PublicConfig = { vapidPublicKey: deps.vapidPublicKey };
  app.withTypeProvider<ZodTypeProvider>().get(
    API_ROUTES.config,
    { schema: { summary: t("api:routes.config"), tags: [t("api:tags.public")], response: { 200: publicConfigSchema } } },
    async (_request, reply) => {
      // Short cache: the key only changes when an operator rotates it, and then browsers should
      // pick up the new one on their next visit.
      return reply.header("cache-control", "no-cache").send(body);
    },
  );
}
