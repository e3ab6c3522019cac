import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { publicConfigQuerySchema, publicConfigSchema, type PublicConfig } from "../../../shared/api/config.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { ChannelsRepository } from "../../../store/channels-repository.js";
import type { OrganisationRepository } from "../../../store/organisation-repository.js";
import { presentOrganisation } from "../../presenters/organisation.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import type { SiteRegistry } from "../../sites/site-registry.js";
import type { SitePublicKeys } from "../../sites/site-public-keys.js";
import { answers } from "../route-docs.js";

export interface ConfigRoutesDeps {
  /** Only public keys: the site's (or Sino's default); private ones never leave the server. */
  readonly publicKeys: Pick<SitePublicKeys, "publicKeyOf">;
  readonly translator: Translator;
  readonly channels: Pick<ChannelsRepository, "listActive">;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannelsPerSubscription: number;
  /** Resolves `?site=KEY`. */
  readonly sites: Pick<SiteRegistry, "byKey" | "builtIn">;
  /** SINO_TIME_ZONE. */
  readonly timeZone: string;
  readonly organisation: Pick<OrganisationRepository, "get">;
  /** SINO_PUBLIC_URL, for the logo's absolute address (the embed shows it on other origins). */
  readonly publicUrl: string;
}

export function registerConfigRoutes(app: FastifyInstance, deps: ConfigRoutesDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().get(
    API_ROUTES.config,
    {
      schema: {
        operationId: "getPublicConfig",
        security: [],
        summary: t("api:routes.config"),
        tags: [t("api:tags.public")],
        querystring: publicConfigQuerySchema,
        response: answers({ 200: publicConfigSchema }),
      },
    },
    async (request, reply) => {
      const key = request.query.site;
      const site = key === undefined ? await deps.sites.builtIn() : await deps.sites.byKey(key);
      if (site === undefined) throw apiError("site_not_found", "site");
      // The site's own key (issue 20): its visitors subscribe with it, and its pushes are signed with it.
      const [channels, organisation, vapidPublicKey] = await Promise.all([deps.channels.listActive(), deps.organisation.get(), deps.publicKeys.publicKeyOf(site)]);
      const body: PublicConfig = {
        vapidPublicKey,
        channels: channels.map((c) => ({ slug: c.slug, name: c.name, description: c.description })),
        maxChannelsPerSubscription: deps.maxChannelsPerSubscription,
        timeZone: deps.timeZone,
        organisation: presentOrganisation(organisation, deps.publicUrl),
      };
      // no-cache: the key changes when an operator rotates it and channels when they edit them;
      // browsers revalidate on every visit.
      return reply.header("cache-control", "no-cache").send(body);
    },
  );
}
