/**
 * What a site owner pastes, filled in with Sino's address and the site's key. The script and the
 * worker URL are the embed's (src/embed, src/server/embed-assets.ts): `/embed/sino.js` reads
 * `data-site`, registers `/sino-sw.js` on the site by default, and `/embed/sw.js?site=KEY` is
 * what that worker imports.
 */
export interface SiteSnippet {
  /** In the page's HTML, once (the <head> or the end of <body>). */
  readonly script: string;
  /** Where the bell goes; without it the bell floats in a corner. */
  readonly element: string;
  /** The file the site serves at its root as `/sino-sw.js`. */
  readonly serviceWorker: string;
  /** That file's path on the site. */
  readonly serviceWorkerPath: string;
}

export const SITE_WORKER_PATH = "/sino-sw.js";

export function siteSnippet(sinoUrl: string, key: string): SiteSnippet {
  const base = sinoUrl.replace(/\/+$/, "");
  const quotedKey = encodeURIComponent(key);
  return {
    script: `<script src="${base}/embed/sino.js" data-site="${quotedKey}" async></script>`,
    element: "<sino-bell></sino-bell>",
    serviceWorker: `importScripts('${base}/embed/sw.js?site=${quotedKey}');`,
    serviceWorkerPath: SITE_WORKER_PATH,
  };
}
