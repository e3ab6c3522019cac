import { afterAll, beforeAll } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../support/browser.js";
import type { TestServer } from "../../support/server.js";
import { requireBuiltWebApp } from "./built-web-app.js";
import { adminOf, registerSite, startEmbedSite, startSinoForEmbed, type EmbedSite } from "./embed-site.js";

/** The file's Chromium, Sino, and the embedding site registered with it; set by beforeAll. */
export interface RegisteredEmbedSite {
  browser: Browser;
  sino: TestServer;
  site: EmbedSite;
}

/**
 * For the whole file (beforeAll, after checking the built web app): a Chromium, Sino for the
 * embed, and a site on its own origin registered with Sino and serving its site key; all closed
 * afterAll.
 */
export function useRegisteredEmbedSite(): RegisteredEmbedSite {
  const current: Partial<RegisteredEmbedSite> = {};
  beforeAll(async () => {
    requireBuiltWebApp();
    current.browser = await launchChromium();
    const sino = await startSinoForEmbed();
    current.sino = sino;
    const site = await startEmbedSite({ sinoUrl: sino.baseUrl, siteKey: null });
    current.site = site;
    site.setSiteKey((await registerSite(await adminOf(sino), site.origin)).key);
  });
  afterAll(async () => {
    await current.browser?.close();
    await current.site?.close();
    await current.sino?.close();
  });
  return current as RegisteredEmbedSite;
}
