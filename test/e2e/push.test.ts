/**
 * The service worker shows every push as a notification with the right title and body; the push
 * is delivered through the DevTools protocol.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { attachCdpPush, listenForShown, shownNotifications } from "./support/cdp-push.js";
import type { CdpPush } from "./support/cdp-push.js";

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  server = await startTestServer({ dialect: "sqlite" });
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

describe("the service worker", () => {
  let context: BrowserContext;
  let page: Page;
  let push: CdpPush;

  beforeEach(async () => {
    context = await browser.newContext();
    await context.grantPermissions(["notifications"], { origin: server.baseUrl });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(server.baseUrl);
    push = await attachCdpPush(context, page, `${server.baseUrl}/`);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await listenForShown(page);
  });
  afterEach(async () => {
    await push?.close();
    await context?.close();
  });

  it("is served as a classic script at /sw.js, controlling the whole site", async () => {
    const response = await fetch(`${server.baseUrl}/sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/javascript/);
    const source = await response.text();
    expect(source).not.toMatch(/^\s*(import|export)\s/m);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(`${server.baseUrl}/`);
  });

  it("serves a web app manifest for home-screen installs (the only way to Web Push on iOS)", async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute("href");
    const response = await fetch(new URL(href ?? "", server.baseUrl));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: ptBR.app.name, lang: "pt-BR", display: "standalone", start_url: "/" });
  });

  it("shows a push as a notification with its title, body and link", async () => {
    const payload = { title: "Manutenção às 22h", body: "O sistema fica fora do ar por 15 minutos.", tag: "manutencao", url: "/avisos/1" };
    await push.deliver(JSON.stringify(payload));

    const { signals, notifications } = await shownNotifications(page, 1);
    expect(signals).toEqual([{ type: "sino:shown", tag: "manutencao", title: payload.title }]);
    expect(notifications).toEqual([{ title: payload.title, body: payload.body, tag: "manutencao", data: { url: "/avisos/1" } }]);
  });

  it("still shows a notification for an empty push, with the catalog's fallback texts", async () => {
    await push.deliver("");

    const { notifications } = await shownNotifications(page, 1);
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ title: ptBR.sw.defaultTitle, body: ptBR.sw.fallbackBody });
  });

  it("still shows a notification for a payload that is not JSON", async () => {
    await push.deliver("{não é json");

    const { notifications } = await shownNotifications(page, 1);
    expect(notifications).toMatchObject([{ title: ptBR.sw.defaultTitle, body: "{não é json" }]);
  });
});
