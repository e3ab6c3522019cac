/**
 * A site that already has a service worker (a PWA with its own fetch handler) adds Sino's line to
 * it (`importScripts('https://SINO/embed/sw.js?site=KEY')`) and points the snippet at it with
 * `data-service-worker`. Its fetch handler keeps answering, and Sino's push handler shows pushes.
 * Chromium, with the page's push service stubbed and the push delivered by DevTools (TESTING.md §2, §3).
 */
import { describe, expect, it } from "vitest";
import { useRegisteredEmbedSite } from "./support/registered-embed-site.js";
import { attachCdpPush, listenForShown, shownNotifications } from "./support/cdp-push.js";
import { NETWORK_HELLO, SITE_WORKER_HELLO } from "./support/embed-site.js";
import { settledEmbedBell } from "./support/embed-page.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";

const embed = useRegisteredEmbedSite();

describe("a site's existing service worker that imports Sino's", () => {
  it("keeps its own fetch handler, and shows pushes through Sino's handler", async () => {
    const context = await embed.browser.newContext();
    try {
      await context.grantPermissions(["notifications"], { origin: embed.site.origin });
      await installPushStub(context, { endpoint: testEndpoint(), keys: makeSubscriptionKeys() });
      const page = await context.newPage();
      await page.goto(embed.site.pageUrl({ data: { "data-service-worker": "/pwa-sw.js" } }));
      await (await settledEmbedBell(page, "off")).click();
      await settledEmbedBell(page, "on");

      // The bell registered the site's own worker, not a second one.
      const scripts = await page.evaluate(async () =>
        (await navigator.serviceWorker.getRegistrations()).map((r) => new URL(r.active?.scriptURL ?? "").pathname),
      );
      expect(scripts).toEqual(["/pwa-sw.js"]);

      // The site's fetch handler answers once it controls the page (it claims clients).
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      expect(await page.evaluate(async () => (await fetch("/hello")).text())).toBe(SITE_WORKER_HELLO);
      // Without the worker, the same path answers from the network.
      const direct = await (await fetch(`${embed.site.origin}/hello`)).text();
      expect(direct).toBe(NETWORK_HELLO);

      // A push goes to the same worker: Sino's handler shows it.
      await listenForShown(page);
      const push = await attachCdpPush(context, page, `${embed.site.origin}/`);
      try {
        await push.deliver(JSON.stringify({ title: "Aviso da prefeitura", body: "Coleta de lixo muda na segunda.", tag: "coleta" }));
        const { signals, notifications } = await shownNotifications(page, 1);
        expect(signals).toEqual([{ type: "sino:shown", tag: "coleta", title: "Aviso da prefeitura" }]);
        expect(notifications).toMatchObject([{ title: "Aviso da prefeitura", body: "Coleta de lixo muda na segunda.", tag: "coleta" }]);
      } finally {
        await push.close();
      }
    } finally {
      await context.close();
    }
  });
});
