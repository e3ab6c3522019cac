import { snippetBlocked, type Site } from "../../shared/api/sites.js";
import type { SiteWithCount } from "../../store/sites-repository.js";
import type { Translator } from "../i18n.js";

export interface SitePresentationContext {
  /** SINO_PUBLIC_URL's origin: the built-in site's. */
  readonly publicOrigin: string;
  /** Whether the previous identity secret's grace period still runs. */
  readonly now: number;
  readonly t: Translator["t"];
}

/** The built-in site shows SINO_PUBLIC_URL's origin, which is where its subscribers are. */
export function presentSite(site: SiteWithCount, context: SitePresentationContext): Site {
  const { identity } = site;
  const previousValid = identity.previousUntil !== null && identity.previousUntil > context.now;
  const origin = site.origin ?? context.publicOrigin;
  return {
    id: String(site.id),
    origin,
    key: site.key,
    builtIn: site.builtIn,
    subscribers: site.subscribers,
    createdAt: new Date(site.createdAt).toISOString(),
    ...(snippetBlocked(origin, context.publicOrigin) ? { snippetWarning: context.t("sites:snippetWarning", { sinoUrl: context.publicOrigin }) } : {}),
    visitorTags: site.visitorTags,
    delivery: { frequencyCap: site.frequencyCap, sendWindow: site.sendWindow, timeZone: site.timeZone },
    identity: {
      verification: identity.verification,
      hasSecret: identity.hasSecret,
      rotatedAt: identity.rotatedAt === null ? null : new Date(identity.rotatedAt).toISOString(),
      previousValidUntil: previousValid ? new Date(identity.previousUntil!).toISOString() : null,
      ...(identity.verification ? {} : { warning: context.t("sites:identity.warning") }),
    },
  };
}
