import type { Site } from "../../shared/api/sites.js";
import type { SiteWithCount } from "../../store/sites-repository.js";

/** The built-in site shows SINO_PUBLIC_URL's origin, which is where its subscribers are. */
export function presentSite(site: SiteWithCount, publicOrigin: string): Site {
  return {
    id: String(site.id),
    origin: site.origin ?? publicOrigin,
    key: site.key,
    builtIn: site.builtIn,
    subscribers: site.subscribers,
    createdAt: new Date(site.createdAt).toISOString(),
  };
}
