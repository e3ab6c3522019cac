import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  createSiteRequestSchema,
  deleteSiteResponseSchema,
  identitySecretResponseSchema,
  normaliseSiteOrigin,
  siteResponseSchema,
  sitesResponseSchema,
  updateSiteRequestSchema,
} from "../../../shared/api/sites.js";
import type { SitesRepository, SiteWithCount } from "../../../store/sites-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { presentSite } from "../../presenters/site.js";
import { requireJson } from "../../require-json.js";
import type { SiteRegistry } from "../../sites/site-registry.js";
import { deliveryChangeOf, hasDeliveryChange, type SiteDeliveryDeps } from "./site-delivery.js";
import { answers, operatorDocs } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface SiteRoutesDeps {
  readonly sites: SitesRepository;
  /** Invalidated on every change, so CORS and registrations see it at once. */
  readonly registry: Pick<SiteRegistry, "invalidate">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  /** SINO_PUBLIC_URL. */
  readonly publicUrl: string;
  /** SINO_IDENTITY_SECRET_GRACE_HOURS, in ms. */
  readonly identitySecretGraceMs: number;
  readonly now: () => number;
  /** A site's frequency cap, send window and time zone (engagement). */
  readonly delivery: SiteDeliveryDeps;
}

const siteParams = idParamsOf("site_not_found");

/**
 * Sites: any operator reads them (to narrow a send to one); admins register and delete them, and
 * manage how people are identified on them (the identity secret, verification on or off).
 */
export function registerSiteRoutes(app: FastifyInstance, deps: SiteRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const doc = operatorDocs(deps.translator, "api:tags.sites");
  const { requireUser, requireAdmin } = deps.authenticator;
  const publicOrigin = new URL(deps.publicUrl).origin;
  const sinoUrl = deps.publicUrl.replace(/\/+$/, "");
  const present = (site: SiteWithCount) => presentSite(site, { publicOrigin, now: deps.now(), t });

  routes.get(
    API_ROUTES.sites,
    { onRequest: requireUser, schema: { operationId: "listSites", ...doc("api:routes.sitesList"), response: answers({ 200: sitesResponseSchema }) } },
    async () => ({ sites: (await deps.sites.list()).map((site) => present(site)), sinoUrl, deliveryDefaults: deps.delivery.deliveryDefaults }),
  );

  routes.post(
    API_ROUTES.sites,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "createSite", ...doc("api:routes.sitesCreate"), body: createSiteRequestSchema, response: answers({ 201: siteResponseSchema }) },
    },
    async (request, reply) => {
      const normalised = normaliseSiteOrigin(request.body.origin);
      if (!normalised.ok) throw apiError(normalised.code, "origin");
      // Sino's own origin is the built-in site already.
      if (normalised.origin === publicOrigin) throw apiError("site_origin_taken", "origin");
      const created = await deps.sites.create(normalised.origin, deps.now());
      if (created === "origin_taken") throw apiError("site_origin_taken", "origin");
      deps.registry.invalidate();
      request.log.info({ siteId: created.id }, "site created");
      return reply.code(201).send({ site: present(created) });
    },
  );

  routes.delete(
    `${API_ROUTES.sites}/:id`,
    {
      onRequest: requireAdmin,
      schema: { operationId: "deleteSite", ...doc("api:routes.sitesDelete"), params: siteParams, response: answers({ 200: deleteSiteResponseSchema }) },
    },
    async (request) => {
      const result = await deps.sites.remove(Number(request.params.id), deps.now());
      if (result.outcome === "not_found") throw apiError("site_not_found");
      if (result.outcome === "built_in") throw apiError("site_built_in");
      deps.registry.invalidate();
      request.log.info({ siteId: request.params.id, removedSubscribers: result.removedSubscribers }, "site deleted");
      return { removedSubscribers: result.removedSubscribers };
    },
  );

  routes.patch(
    `${API_ROUTES.sites}/:id`,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "updateSite", ...doc("api:routes.sitesUpdate"), params: siteParams, body: updateSiteRequestSchema, response: answers({ 200: siteResponseSchema }) },
    },
    async (request) => {
      const id = Number(request.params.id);
      const { identityVerification, visitorTags, frequencyCap, sendWindow, timeZone } = request.body;
      const delivery = deliveryChangeOf({ frequencyCap, sendWindow, timeZone });
      let site = await deps.sites.findById(id);
      if (site === undefined) throw apiError("site_not_found");
      if (hasDeliveryChange(delivery)) {
        await deps.delivery.engagement.setSiteDelivery(id, delivery);
        site = await deps.sites.findById(id);
      }
      if (identityVerification !== undefined) site = await deps.sites.setIdentityVerification(id, identityVerification);
      if (visitorTags !== undefined) site = await deps.sites.setVisitorTags(id, visitorTags);
      if (site === undefined) throw apiError("site_not_found");
      request.log.info({ siteId: site.id, identityVerification, visitorTags, ...delivery }, "site settings set");
      return { site: present(site) };
    },
  );

  // The secret is in this answer only (no-store: no cache keeps it either).
  routes.post(
    `${API_ROUTES.sites}/:id/identity-secret`,
    {
      onRequest: requireAdmin,
      schema: { operationId: "rotateSiteIdentitySecret", ...doc("api:routes.sitesIdentitySecret"), params: siteParams, response: answers({ 200: identitySecretResponseSchema }) },
    },
    async (request, reply) => {
      const rotated = await deps.sites.rotateIdentitySecret(Number(request.params.id), deps.now(), deps.identitySecretGraceMs);
      if (rotated === undefined) throw apiError("site_not_found");
      request.log.info({ siteId: rotated.site.id }, "site identity secret generated");
      reply.header("cache-control", "no-store");
      return { secret: rotated.secret, site: present(rotated.site) };
    },
  );
}
