/**
 * The embedded bell in Firefox ESR with nothing stubbed (issue 9, TESTING.md §4): a site on its own
 * origin includes sino.js from Sino on another origin; Firefox's own push client subscribes on the
 * SITE's origin through a local Mozilla push server; a send made through Sino's API is encrypted by
 * Sino's engine, decrypted by Firefox and shown by the site's service worker (which imports
 * Sino's); the worker's cross-origin "shown" report is counted; the bell turns it all off.
 */
import type { BrowserContext } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerSite, startEmbedSite, type EmbedSite } from "./support/embed-site.js";
import {
  expectRealSubscription,
  expectSendShownAndCounted,
  pushSubscriptionOf,
  recordShownMessages,
  useFirefoxRealPush,
} from "./support/firefox-real-push.js";

const env = useFirefoxRealPush();
let site: EmbedSite;
let siteId: string;

beforeAll(async () => {
  site = await startEmbedSite({ sinoUrl: env.sino.baseUrl, siteKey: null });
  const registered = await registerSite(env.admin, site.origin);
  siteId = registered.id;
  site.setSiteKey(registered.key);
});
afterAll(async () => {
  await site?.close();
});

/** The embedded bell's button in a given state, not busy (inside the shadow root: `>>>` pierces it). */
function bellSelector(state: "on" | "off"): string {
  return `sino-bell[state="${state}"] >>> button.bell[aria-busy="false"]`;
}

describe("the embedded bell in Firefox ESR, on a site's origin, with a real push subscription", () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it("subscribes on the site, shows a send through the site's worker, counts it shown, and turns off", async () => {
    context = await env.browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(site.pageUrl());
    await recordShownMessages(page);

    await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
    await page.click(bellSelector("off"));
    await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });

    // The subscription belongs to the site's origin (its worker's registration), made with Sino's key.
    const channel = await expectRealSubscription(env, page, { origin: site.origin, id: siteId });

    // A send through the API, decrypted by Firefox, shown by the site's worker and counted by Sino.
    await expectSendShownAndCounted(env, page, channel, { title: "Feira no sábado", body: "Das 8h às 13h, na praça." });

    await page.click(bellSelector("on"));
    await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
    expect(await env.sino.database.db.selectFrom("subscriptions").select("endpoint").execute()).toEqual([]);
    expect(await pushSubscriptionOf(page)).toBeNull();
  });
});
