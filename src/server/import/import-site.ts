import type { SitesRepository } from "../../store/sites-repository.js";
import type { ImportSite } from "./run-import.js";
import { ImportError } from "./import-error.js";

/**
 * The site named by `--site` / `?site=`: its id, its key (`data-site` of the snippet), its origin
 * (`https://www.exemplo.com.br`) or its host name (`www.exemplo.com.br`); absent: Sino's own. A
 * registered site takes new subscriptions only up to SINO_SITE_MAX_SUBSCRIPTIONS (0: no cap), as
 * its embed does; Sino's own is never capped.
 */
export async function resolveImportSite(
  sites: Pick<SitesRepository, "list" | "countSubscriptions">,
  name: string | undefined,
  maxSubscriptionsPerSite: number,
): Promise<ImportSite> {
  const all = await sites.list();
  const wanted = name?.trim().toLowerCase();
  const site =
    wanted === undefined || wanted === ""
      ? all.find((candidate) => candidate.builtIn)
      : all.find(
          (candidate) =>
            String(candidate.id) === wanted ||
            candidate.key.toLowerCase() === wanted ||
            candidate.origin?.toLowerCase() === wanted ||
            (candidate.origin !== null && new URL(candidate.origin).host === wanted),
        );
  if (site === undefined) throw new ImportError("site_not_found");
  const capped = !site.builtIn && maxSubscriptionsPerSite > 0;
  const room = capped ? Math.max(0, maxSubscriptionsPerSite - (await sites.countSubscriptions(site.id))) : undefined;
  return { id: site.id, vapidKeyId: site.vapidKeyId, room };
}
