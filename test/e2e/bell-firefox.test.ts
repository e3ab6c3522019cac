/**
 * The bell in Firefox ESR with nothing stubbed: Firefox's own push client
 * subscribes through a local Mozilla push server, and Sino's server must end up with exactly the
 * subscription Firefox made; turning off removes it. Also proves the worker runs as a classic
 * script in Firefox ESR.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "puppeteer-core";
import { launchFirefox } from "../support/firefox.js";
import { startMozillaPushServer } from "../support/mozilla-push/mozilla-push-server.js";
import type { MozillaPushServer } from "../support/mozilla-push/mozilla-push-server.js";
import { startTestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

let pushServer: MozillaPushServer;
let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  requireBuiltWebApp();
  pushServer = await startMozillaPushServer();
  [browser, server] = await Promise.all([
    launchFirefox({ pushServerUrl: pushServer.wsUrl, notifications: "granted" }),
    startTestServer({ dialect: "sqlite" }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await pushServer?.close();
});

async function settled(page: Page, on: boolean) {
  const selector = `header button[aria-pressed="${on}"][aria-busy="false"]:not([disabled])`;
  await page.waitForSelector(selector, { timeout: 20_000 });
  return selector;
}

describe("the bell in Firefox ESR, with a real push subscription", () => {
  it("stores exactly the subscription Firefox made, and removes it when turned off", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.goto(server.baseUrl);
      await page.click(await settled(page, false));
      await settled(page, true);

      const made = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.pushManager.getSubscription())?.toJSON();
      });
      const channel = pushServer.channels().find((c) => c.pushEndpoint === made?.endpoint);
      expect(channel).toBeDefined();
      const config = (await (await fetch(`${server.url}/api/v1/config`)).json()) as { vapidPublicKey: string };
      expect(channel?.key?.replace(/=+$/, "")).toBe(config.vapidPublicKey);

      const rows = await server.database.db.selectFrom("subscriptions").select(["endpoint", "p256dh", "auth"]).execute();
      expect(rows).toEqual([{ endpoint: made?.endpoint, p256dh: made?.keys?.["p256dh"], auth: made?.keys?.["auth"] }]);

      await page.click(await settled(page, true));
      await settled(page, false);
      expect(await server.database.db.selectFrom("subscriptions").select("endpoint").execute()).toEqual([]);
      expect(
        await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription()) === null),
      ).toBe(true);
    } finally {
      await context.close();
    }
  });
});
