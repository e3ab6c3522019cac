/**
 * The embedded bell in Firefox ESR with nothing stubbed (issue 9, TESTING.md §4): a site on its own
 * origin includes sino.js from Sino on another origin; Firefox's own push client subscribes on the
 * SITE's origin through a local Mozilla push server; a send made through Sino's API is encrypted by
 * Sino's engine, decrypted by Firefox and shown by the site's service worker (which imports
 * Sino's); the worker's cross-origin "shown" report is counted; the bell turns it all off.
 */
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForSend } from "../support/delivery.js";
import { loadTestTls } from "../support/fake-push/test-tls.js";
import { launchFirefox } from "../support/firefox.js";
import { startMozillaPushServer, type MozillaPushServer } from "../support/mozilla-push/mozilla-push-server.js";
import { ACK_DELIVERED } from "../support/mozilla-push/protocol.js";
import { addToken, ApiClient } from "../support/operators.js";
import type { TestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { adminOf, registerSite, startEmbedSite, startSinoForEmbed, type EmbedSite } from "./support/embed-site.js";

let mozilla: MozillaPushServer;
let browser: Browser;
let sino: TestServer;
let site: EmbedSite;
let siteId: string;
let publisher: ApiClient;

beforeAll(async () => {
  requireBuiltWebApp();
  mozilla = await startMozillaPushServer();
  [browser, sino] = await Promise.all([
    launchFirefox({ pushServerUrl: mozilla.wsUrl, notifications: "granted" }),
    startSinoForEmbed({
      dialect: "sqlite",
      env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50", SINO_ENCRYPTION_THREADS: "1" },
    }),
  ]);
  const admin = await adminOf(sino);
  site = await startEmbedSite({ sinoUrl: sino.baseUrl, siteKey: null });
  const registered = await registerSite(admin, site.origin);
  siteId = registered.id;
  site.setSiteKey(registered.key);
  const { secret } = await addToken(admin, "publish");
  publisher = new ApiClient({ url: sino.url, origin: sino.baseUrl }, { bearer: secret, origin: null });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await sino?.close();
  await mozilla?.close();
});

/** The embedded bell's button in a given state, not busy (inside the shadow root: `>>>` pierces it). */
function bellSelector(state: "on" | "off"): string {
  return `sino-bell[state="${state}"] >>> button.bell[aria-busy="false"]`;
}

async function subscriptionOf(page: Page) {
  return page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.toJSON() ?? null);
}

describe("the embedded bell in Firefox ESR, on a site's origin, with a real push subscription", () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it("subscribes on the site, shows a send through the site's worker, counts it shown, and turns off", async () => {
    context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(site.pageUrl());
    await page.evaluate(() => {
      const w = window as unknown as { sinoShown: Array<{ title: string; tag: string | null }> };
      w.sinoShown = [];
      navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
        const data = event.data as { type?: string; title: string; tag: string | null } | null;
        if (data?.type === "sino:shown") w.sinoShown.push({ title: data.title, tag: data.tag });
      });
    });

    await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
    await page.click(bellSelector("off"));
    await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });

    // The subscription belongs to the site's origin (its worker's registration), made with Sino's key.
    const made = await subscriptionOf(page);
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${site.origin}/`);
    const channel = mozilla.channels().find((c) => c.pushEndpoint === made?.endpoint);
    expect(channel).toBeDefined();
    const config = (await (await fetch(`${sino.url}/api/v1/config`)).json()) as { vapidPublicKey: string };
    expect(channel?.key?.replace(/=+$/, "")).toBe(config.vapidPublicKey);
    const rows = await sino.database.db.selectFrom("subscriptions").select(["id", "endpoint", "p256dh", "auth", "site_id"]).execute();
    expect(rows.map(({ id: _id, ...row }) => row)).toEqual([
      { endpoint: made?.endpoint, p256dh: made?.keys?.["p256dh"], auth: made?.keys?.["auth"], site_id: Number(siteId) },
    ]);

    // A send through the API, as an application would.
    const res = await publisher.post("/api/v1/notifications", { title: "Feira no sábado", body: "Das 8h às 13h, na praça." });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const done = await waitForSend(() => sino.delivery.getSend(Number(res.body.notification.id)));
    expect(done.counts).toMatchObject({ queued: 1, accepted: 1, failed: 0 });
    const version = mozilla.lastVersion(channel!.channelID);
    expect((await mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);

    await page.waitForFunction(
      () => (window as unknown as { sinoShown: Array<{ title: string }> }).sinoShown.some((m) => m.title === "Feira no sábado"),
      { timeout: 20_000 },
    );
    const shown = await page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })),
    );
    expect(shown).toContainEqual({ title: "Feira no sábado", body: "Das 8h às 13h, na praça." });

    // The site's worker reported "shown" to Sino, cross-origin, and Sino counted it.
    await expect
      .poll(() => sino.database.db.selectFrom("notification_events").select(["notification_id", "type"]).execute(), { timeout: 20_000 })
      .toEqual([{ notification_id: Number(done.id), type: "shown" }]);

    await page.click(bellSelector("on"));
    await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
    expect(await sino.database.db.selectFrom("subscriptions").select("endpoint").execute()).toEqual([]);
    expect(await subscriptionOf(page)).toBeNull();
  });
});
