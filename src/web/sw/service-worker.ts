/// <reference lib="webworker" />
/**
 * Sino's own service worker, served as /sw.js with scope `/`. Built as a classic script (one IIFE,
 * no `import` at run time): Firefox ESR does not run module service workers
 * (`register(url, { type: "module" })` fails there), and a classic worker runs everywhere. The
 * behaviour is shared with the worker a site imports (src/embed/sw-entry.ts), and so are its two
 * texts: read straight from the catalog's `sw` namespace, without i18next (which made this
 * worker 97 KB for two strings).
 */
import sw from "../../shared/i18n/pt-BR/sw.json" with { type: "json" };
import { createApiClient, installSinoWorker } from "../../client/worker.js";

declare const self: ServiceWorkerGlobalScope;

installSinoWorker(self, {
  api: createApiClient({ baseUrl: self.location.origin }),
  texts: { defaultTitle: sw.defaultTitle, fallbackBody: sw.fallbackBody },
  takeOverImmediately: true,
});
