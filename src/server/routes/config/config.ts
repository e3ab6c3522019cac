import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { publicConfigSchema, type PublicConfig } from "../../../shared/api/config.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { Translator } from "../../i18n.js";

export interface ConfigRoutesDeps {
  /** Only the public key: the private one never leaves the server. */
  readonly vapidPublicKey: string;
  readonly translator: Translator;
  readonly channels: Pick<ChannelsRepository, "listActive">;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannelsPerSubscription: number;
  /** SINO_TIME_ZONE. */
  readonly timeZone: string;
}

export function registerConfigRoutes(app: FastifyInstance, deps: ConfigRoutesDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().get(
    API_ROUTES.config,
    { schema: { summary: t("api:routes.config"), tags: [t("api:tags.public")], response: { 200: publicConfigSchema } } },
    async (_request, reply) => {
      const channels = await deps.channels.listActive();
      const body: PublicConfig = {
        vapidPublicKey: deps.vapidPublicKey,
        channels: channels.map((c) => ({ slug: c.slug, name: c.name, description: c.description })),
        maxChannelsPerSubscription: deps.maxChannelsPerSubscription,
        timeZone: deps.timeZone,
      };
      // no-cache: the key changes when an operator rotates it and channels when they edit them;
      // browsers revalidate on every visit.
      return reply.header("cache-control", "no-cache").send(body);
    },
  );
}
