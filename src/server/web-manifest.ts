import type { FastifyInstance } from "fastify";
import { baseWebManifest } from "../shared/web-manifest.js";
import type { OrganisationRepository } from "../store/organisation-repository.js";
import type { Translator } from "./i18n.js";
import { presentOrganisation } from "./presenters/organisation.js";

export interface WebManifestDeps {
  readonly organisation: Pick<OrganisationRepository, "get">;
  readonly translator: Translator;
  readonly publicUrl: string;
}

/**
 * `/manifest.webmanifest`: the build's manifest (shared/web-manifest.ts) with the organisation's
 * identity over it, so an installed app (the only way to get push on an iPhone) is named after the
 * organisation, wears its accent colour and shows its logo. Read per request: it is fetched once
 * per install or update check, and an admin's change shows at once.
 */
export function registerWebManifest(app: FastifyInstance, deps: WebManifestDeps): void {
  const base = baseWebManifest();
  app.get("/manifest.webmanifest", { schema: { hide: true } }, async (_request, reply) => {
    const stored = await deps.organisation.get();
    const organisation = presentOrganisation(stored, deps.publicUrl);
    const manifest = {
      ...base,
      ...(organisation.name === null ? {} : { name: `${organisation.name} · ${deps.translator.t("notices:title")}`, short_name: organisation.name }),
      ...(organisation.accentColor === null ? {} : { theme_color: organisation.accentColor }),
      ...(organisation.logoUrl === null || stored.logo === null
        ? {}
        : { icons: [{ src: organisation.logoUrl, sizes: `${stored.logo.width}x${stored.logo.height}`, type: stored.logo.type, purpose: "any" }, ...base.icons] }),
    };
    return reply.header("Cache-Control", "no-cache").type("application/manifest+json; charset=utf-8").send(JSON.stringify(manifest));
  });
}
