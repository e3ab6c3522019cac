/// <reference lib="webworker" />
/**
 * Sino's part of a site's service worker: the site hosts one file on its own origin with
 * `importScripts('https://SINO/embed/sw.js?site=KEY')` (or adds that line to the worker it
 * already has). The server wraps this script in a function whose `SINO_EMBED_CONFIG` argument
 * names Sino's public URL and the site key (src/server/embed-assets.ts), so nothing else has to
 * be configured on the site. Only push/notification listeners are added: the site's own fetch,
 * install and activate handlers (a PWA's, Workbox's) keep working, and its update flow stays its own.
 */
import sw from "../shared/i18n/pt-BR/sw.json" with { type: "json" };
import { createApiClient, installSinoWorker } from "../client/worker.js";

declare const self: ServiceWorkerGlobalScope;

export interface EmbedWorkerConfig {
  sinoUrl: string;
  site: string | null;
}

declare const SINO_EMBED_CONFIG: EmbedWorkerConfig | undefined;

/** Imported twice (the site's file and a plugin both add the line): the listeners are added once. */
const INSTALLED = Symbol.for("sino.embed-worker");

function install(scope: ServiceWorkerGlobalScope & { [INSTALLED]?: boolean }): void {
  if (scope[INSTALLED]) return;
  if (typeof SINO_EMBED_CONFIG === "undefined") {
    console.error("Sino: this worker script must be loaded from Sino's /embed/sw.js, which names its server.");
    return;
  }
  scope[INSTALLED] = true;
  installSinoWorker(scope, {
    api: createApiClient({ baseUrl: SINO_EMBED_CONFIG.sinoUrl, site: SINO_EMBED_CONFIG.site }),
    texts: { defaultTitle: sw.defaultTitle, fallbackBody: sw.fallbackBody },
    takeOverImmediately: false,
  });
}

install(self);
