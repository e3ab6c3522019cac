import { createHash } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  ACCENT_MIN_CONTRAST,
  contrastRatio,
  ORGANISATION_LOGO_MAX_BYTES,
  ORGANISATION_LOGO_TYPES,
  organisationResponseSchema,
  updateOrganisationRequestSchema,
} from "../../../shared/api/organisation.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { OrganisationChange, OrganisationRepository } from "../../../store/organisation-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { sniffImage } from "../../organisation/logo-image.js";
import { OPERATOR_SECURITY, apiErrorSchema } from "../../openapi.js";
import { presentOrganisation } from "../../presenters/organisation.js";
import { requireJson } from "../../require-json.js";
import { answers } from "../route-docs.js";

export interface OrganisationRoutesDeps {
  readonly organisation: OrganisationRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  /** SINO_PUBLIC_URL: the logo's absolute address. */
  readonly publicUrl: string;
  readonly now: () => number;
  /** Told after every change (the public configuration and the manifest read it). */
  readonly onChange?: () => void;
}

/** The JSON body around a base64 logo of the largest size, with room for the other fields. */
const UPDATE_BODY_LIMIT = Math.ceil((ORGANISATION_LOGO_MAX_BYTES * 4) / 3) + 8 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const WHITE = "#ffffff";

/**
 * The organisation's identity: anyone reads it (the public page and every site's bell show it),
 * admins change it. The logo is served from here, by its own URL, cacheable and cross-origin.
 */
export function registerOrganisationRoutes(app: FastifyInstance, deps: OrganisationRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = [t("api:tags.organisation")];

  routes.get(
    API_ROUTES.organisation,
    {
      schema: {
        operationId: "getOrganisation",
        summary: t("api:routes.organisationGet"),
        tags,
        security: [],
        response: answers({ 200: organisationResponseSchema }),
      },
    },
    async (_request, reply) => {
      const organisation = presentOrganisation(await deps.organisation.get(), deps.publicUrl);
      return reply.header("Cache-Control", "no-cache").send({ organisation });
    },
  );

  routes.put(
    API_ROUTES.organisation,
    {
      onRequest: [deps.authenticator.requireAdmin, requireJson],
      bodyLimit: UPDATE_BODY_LIMIT,
      schema: {
        operationId: "updateOrganisation",
        summary: t("api:routes.organisationUpdate"),
        tags,
        security: OPERATOR_SECURITY,
        body: updateOrganisationRequestSchema,
        response: answers({ 200: organisationResponseSchema }),
      },
    },
    async (request) => {
      const { name, accentColor, logo } = request.body;
      const change: { -readonly [K in keyof OrganisationChange]: OrganisationChange[K] } = {};
      if (name !== undefined) change.name = name;
      if (accentColor !== undefined) {
        const colour = accentColor === null ? null : accentColor.toLowerCase();
        if (colour !== null && contrastRatio(colour, WHITE) < ACCENT_MIN_CONTRAST) throw apiError("organisation_accent_low_contrast", "accentColor");
        change.accentColor = colour;
      }
      if (logo !== undefined) {
        if (logo === null) change.logo = null;
        else {
          if (!BASE64.test(logo.data)) throw apiError("organisation_logo_invalid", "logo.data");
          const bytes = Buffer.from(logo.data, "base64");
          if (bytes.length > ORGANISATION_LOGO_MAX_BYTES) throw apiError("organisation_logo_too_large", "logo.data");
          const image = sniffImage(bytes);
          if (image === undefined) throw apiError("organisation_logo_invalid", "logo.data");
          change.logo = { type: image.type, bytes, width: image.width, height: image.height };
        }
      }
      const stored = await deps.organisation.update(change, deps.now());
      deps.onChange?.();
      request.log.info({ fields: Object.keys(change) }, "organisation identity changed");
      return { organisation: presentOrganisation(stored, deps.publicUrl) };
    },
  );

  app.get<{ Querystring: { v?: string } }>(
    API_ROUTES.organisationLogo,
    {
      schema: {
        operationId: "getOrganisationLogo",
        summary: t("api:routes.organisationLogo"),
        tags,
        security: [],
        // `v` only makes each logo its own address for caches (the time it was saved); it is never read.
        querystring: z.object({ v: z.string().regex(/^\d{1,16}$/).optional() }),
        // The image's own bytes (PNG, JPEG or WebP, as uploaded), not JSON.
        produces: [...ORGANISATION_LOGO_TYPES],
        response: {
          200: z.string().describe(t("api:routes.organisationLogo")),
          304: z.null().describe(t("api:routes.organisationLogoNotModified")),
          // 404 when no logo is set; 400 for a malformed `v`.
          "4xx": apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const logo = await deps.organisation.logo();
      if (logo === undefined) throw apiError("organisation_logo_not_found");
      const etag = `"${createHash("sha256").update(logo.bytes).digest("base64url").slice(0, 27)}"`;
      // A versioned address (?v=) may be kept a day; the bare one is revalidated by ETag.
      reply
        .header("ETag", etag)
        .header("Cache-Control", request.query.v === undefined ? "no-cache" : "public, max-age=86400")
        .header("Access-Control-Allow-Origin", "*");
      if (request.headers["if-none-match"]?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return reply.code(304).send();
      return reply.type(logo.type).send(logo.bytes);
    },
  );
}
