/**
 * Firefox ESR with nothing stubbed (TESTING.md §4), shared by the browser tests that put Sino's bell
 * on a site's own origin (the embed snippet, the React package): Firefox's push client talks to a
 * local Mozilla push server, Sino runs on another origin with a publish token, and the steps each
 * test checks the same way — the real subscription, a send through the API decrypted and shown by
 * the site's worker, and the worker's "shown" report counted by Sino.
 */
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, expect } from "vitest";
import { waitForNotification } from "../../support/delivery.js";
import { loadTestTls } from "../../support/fake-push/test-tls.js";
import { launchFirefox } from "../../support/firefox.js";
import { startMozillaPushServer, type Channel, type MozillaPushServer } from "../../support/mozilla-push/mozilla-push-server.js";
import { ACK_DELIVERED } from "../../support/mozilla-push/protocol.js";
import { addToken, ApiClient } from "../../support/operators.js";
import type { TestServer } from "../../support/server.js";
import { requireBuiltWebApp } from "./built-web-app.js";
import { adminOf, startSinoForEmbed } from "./embed-site.js";

/** The file's Firefox (notifications granted), Mozilla push server, Sino, admin and publisher. */
export interface FirefoxRealPush {
  mozilla: MozillaPushServer;
  browser: Browser;
  sino: TestServer;
  /** The first admin, signed in (registers sites). */
  admin: ApiClient;
  /** A `publish` token's client, as an application sending through the API. */
  publisher: ApiClient;
}

/**
 * For the whole file (beforeAll, after checking the built web app): a Mozilla push server, Firefox
 * ESR using it, and a SQLite Sino at its real public address (`/embed/sw.js` names it) that trusts
 * the test CA and polls for sends quickly (`env` adds or overrides Sino's settings); all closed afterAll.
 */
export function useFirefoxRealPush(
  options: { env?: Readonly<Record<string, string>>; systemAccess?: boolean; extraPrefs?: Readonly<Record<string, unknown>> } = {},
): FirefoxRealPush {
  const current: Partial<FirefoxRealPush> = {};
  beforeAll(async () => {
    requireBuiltWebApp();
    current.mozilla = await startMozillaPushServer();
    const [browser, sino] = await Promise.all([
      launchFirefox({ pushServerUrl: current.mozilla.wsUrl, notifications: "granted", systemAccess: options.systemAccess ?? false, extraPrefs: options.extraPrefs ?? {} }),
      startSinoForEmbed({
        dialect: "sqlite",
        env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50", SINO_ENCRYPTION_THREADS: "1", ...options.env },
      }),
    ]);
    current.browser = browser;
    current.sino = sino;
    current.admin = await adminOf(sino);
    const { secret } = await addToken(current.admin, "publish");
    current.publisher = new ApiClient({ url: sino.url, origin: sino.baseUrl }, { bearer: secret, origin: null });
  });
  afterAll(async () => {
    await current.browser?.close();
    await current.sino?.close();
    await current.mozilla?.close();
  });
  return current as FirefoxRealPush;
}

interface ShownWindow {
  sinoShown?: Array<{ title: string; tag: string | null }>;
}

/**
 * Collects, in the page, the site worker's `sino:shown` messages (posted once `showNotification`
 * resolved): `getNotifications()` read before that signal can come back empty (TESTING.md §3).
 */
export async function recordShownMessages(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as ShownWindow;
    w.sinoShown = [];
    navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
      const data = event.data as { type?: string; title: string; tag: string | null } | null;
      if (data?.type === "sino:shown") w.sinoShown?.push({ title: data.title, tag: data.tag });
    });
  });
}

/** The page's push subscription (its worker's registration), as JSON; null when there is none. */
export async function pushSubscriptionOf(page: Page): Promise<PushSubscriptionJSON | null> {
  return page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.toJSON() ?? null);
}

/**
 * Checks the subscription the bell just made: on the site's origin (its worker's scope), registered
 * with the Mozilla push server under Sino's VAPID key, and stored by Sino exactly as the browser
 * made it, for the site `siteId` and nothing else. Returns the push server's channel.
 */
export async function expectRealSubscription(env: FirefoxRealPush, page: Page, site: { origin: string; id: string }): Promise<Channel> {
  const made = await pushSubscriptionOf(page);
  expect(made?.endpoint).toBeDefined();
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(scope).toBe(`${site.origin}/`);
  const channel = env.mozilla.channels().find((c) => c.pushEndpoint === made?.endpoint);
  expect(channel).toBeDefined();
  const config = (await (await fetch(`${env.sino.url}/api/v1/config`)).json()) as { vapidPublicKey: string };
  expect(channel?.key?.replace(/=+$/, "")).toBe(config.vapidPublicKey);
  const rows = await env.sino.database.db.selectFrom("subscriptions").select(["endpoint", "p256dh", "auth", "site_id"]).execute();
  expect(rows).toEqual([{ endpoint: made?.endpoint, p256dh: made?.keys?.["p256dh"], auth: made?.keys?.["auth"], site_id: Number(site.id) }]);
  return channel!;
}

/**
 * A send through Sino's API, as an application would make it: accepted by the push server, acked as
 * delivered (decrypted) by Firefox, shown by the site's worker (see `recordShownMessages`), and
 * the worker's cross-origin "shown" report counted by Sino. The page must be recording.
 */
export async function expectSendShownAndCounted(
  env: FirefoxRealPush,
  page: Page,
  channel: Channel,
  message: { title: string; body: string },
): Promise<void> {
  const res = await env.publisher.post("/api/v1/notifications", message);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const done = await waitForNotification(() => env.sino.delivery.getNotification(Number(res.body.notification.id)));
  expect(done.counts).toMatchObject({ queued: 1, accepted: 1, failed: 0 });
  const version = env.mozilla.lastVersion(channel.channelID);
  expect((await env.mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);

  await page.waitForFunction(
    (title) => ((window as unknown as ShownWindow).sinoShown ?? []).some((m) => m.title === title),
    { timeout: 20_000 },
    message.title,
  );
  const shown = await page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })),
  );
  expect(shown).toContainEqual(message);

  await expect
    .poll(() => env.sino.database.db.selectFrom("notification_events").select(["notification_id", "type"]).execute(), { timeout: 20_000 })
    .toEqual([{ notification_id: Number(done.id), type: "shown" }]);
}
