/**
 * The React package (issue 9, "React apps") in Firefox ESR with nothing stubbed, as the embedded
 * bell is in embed-firefox.test.ts: the Vite test app (packages/react/test-app, built from the
 * package's build) on its own origin, with the one-line `/sino-sw.js` importing Sino's worker;
 * Sino on another origin. `<SinoBell />` subscribes through Firefox's own push client and a local
 * Mozilla push server; a send through Sino's API is decrypted by Firefox and shown by the site's
 * worker; the worker's "shown" report is counted; the bell turns it all off.
 */
import type { BrowserContext, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { registerSite } from "./support/embed-site.js";
import {
  expectRealSubscription,
  expectSendShownAndCounted,
  pushSubscriptionOf,
  recordShownMessages,
  useFirefoxRealPush,
} from "./support/firefox-real-push.js";
import { buildReactTestApp, reactTestAppPage, serveReactTestApp, type StaticSite } from "./support/react-test-app.js";

const env = useFirefoxRealPush();
let app: StaticSite;
let siteId: string;
let siteKey = "";

beforeAll(async () => {
  const dir = await buildReactTestApp();
  app = await serveReactTestApp(dir, { url: env.sino.baseUrl, siteKey: () => siteKey });
  const registered = await registerSite(env.admin, app.url);
  siteId = registered.id;
  siteKey = registered.key;
}, 120_000);
afterAll(async () => {
  await app?.close();
});

/** `<SinoBell />`'s button in a given state, not busy (the only pressed/unpressed toggle in the header). */
function bellSelector(state: "on" | "off"): string {
  return `header button[aria-pressed="${state === "on"}"][aria-busy="false"]`;
}

async function textOf(page: Page, testId: string): Promise<string | null> {
  return page.$eval(`[data-testid="${testId}"]`, (el) => el.textContent);
}

describe("@sino/react in Firefox ESR, on the app's origin, with a real push subscription", () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it("subscribes from <SinoBell />, shows a send through the app's worker, counts it shown, and turns off", async () => {
    context = await env.browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(reactTestAppPage(app.url, env.sino.baseUrl, siteKey));

    const off = await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
    expect(await off?.evaluate((el) => el.getAttribute("aria-label"))).toBe(ptBR.bell.enable);
    // The provider registered the app's own /sino-sw.js; it must control the page's registration
    // before the worker's messages can reach the page.
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)).toBe(`${app.url}/sino-sw.js`);
    await recordShownMessages(page);

    await page.click(bellSelector("off"));
    const on = await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });
    expect(await on?.evaluate((el) => el.getAttribute("aria-label"))).toBe(ptBR.bell.disable);

    // The subscription belongs to the app's origin, made with Sino's key and stored for the site.
    const channel = await expectRealSubscription(env, page, { origin: app.url, id: siteId });
    // The token reached the host app's Redux store through setToken.
    const made = await pushSubscriptionOf(page);
    expect(await textOf(page, "store-token")).toBe(made?.endpoint);

    // A send through the API, decrypted by Firefox, shown by the app's worker and counted by Sino.
    await expectSendShownAndCounted(env, page, channel, { title: "Promoção de sexta", body: "Tudo com 20% de desconto até as 18h." });

    // The bell turns it off: in the browser, at the push server and on Sino's server.
    await page.click(bellSelector("on"));
    await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
    expect(await env.sino.database.db.selectFrom("subscriptions").select("endpoint").execute()).toEqual([]);
    expect(await pushSubscriptionOf(page)).toBeNull();
    await expect.poll(() => env.mozilla.channels().map((c) => c.channelID), { timeout: 10_000 }).not.toContain(channel.channelID);
    expect(await textOf(page, "store-token")).toBe("nenhum");
  });
});
