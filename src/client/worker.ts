/**
 * The service workers' entry to the client (Sino's own `/sw.js` and the `embed/sw.js` a site
 * imports): kept apart from `index.ts` because it brings the WebWorker lib's types, which a page
 * (and `@sino/react`'s published types) must not get.
 */
export { createApiClient } from "./messaging/api-client.js";
export type { ApiClient, ApiClientOptions } from "./messaging/api-client.js";
export { installSinoWorker } from "./sw/install-worker.js";
export type { SinoWorkerOptions } from "./sw/install-worker.js";
