/// <reference lib="webworker" />
/**
 * Sino's own service worker, served as /sw.js with scope `/`. Built as a classic script (one IIFE,
 * no `import` at run time): Firefox ESR does not run module service workers
 * (`register(url, { type: "module" })` fails there), and a classic worker runs everywhere. The
 * behaviour is shared with the worker a site imports (src/embed/sw-entry.ts).
 */
import { createI18n } from "../i18n/create-i18n.js";
import { createApiClient } from "../../client/messaging/api-client.js";
import { installSinoWorker } from "../../client/sw/install-worker.js";

declare const self: ServiceWorkerGlobalScope;

const i18n = createI18n();

installSinoWorker(self, {
  api: createApiClient({ baseUrl: self.location.origin }),
  texts: { defaultTitle: i18n.t("sw.defaultTitle"), fallbackBody: i18n.t("sw.fallbackBody") },
  takeOverImmediately: true,
});
