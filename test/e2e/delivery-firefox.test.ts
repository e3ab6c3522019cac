/**
 * The whole of Sino's delivery with a real browser at the other end: Firefox ESR's own
 * push client subscribes through the bell and a local Mozilla push server; the real server's
 * delivery engine stores a notification, encrypts it (RFC 8291, in its worker pool) and POSTs it over
 * HTTPS to the Mozilla server's push endpoint with VAPID (the notification made through the API with a
 * publish token, as an application would); Firefox decrypts it, the service worker
 * shows the notification and Firefox acks 100. A message encrypted for other keys is refused by
 * the browser itself: ack 101, and no push event.
 */
import { createECDH, randomBytes } from "node:crypto";
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForNotification } from "../support/delivery.js";
import { addToken, ApiClient, setUpAdmin } from "../support/operators.js";
import { loadTestTls } from "../support/fake-push/test-tls.js";
import { launchFirefox } from "../support/firefox.js";
import { startMozillaPushServer, type MozillaPushServer } from "../support/mozilla-push/mozilla-push-server.js";
import { ACK_DECRYPTION_ERROR, ACK_DELIVERED } from "../support/mozilla-push/protocol.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";

let mozilla: MozillaPushServer;
let browser: Browser;
let server: TestServer;
/** One browser context and page for the file: the subscription the bell made in it, used by every test. */
let context: BrowserContext;
let page: Page;
let subscription: { endpoint: string; channelID: string };
/** An API client with a publish token, as an application calling Sino would be. */
let publisher: ApiClient;

beforeAll(async () => {
  requireBuiltWebApp();
  mozilla = await startMozillaPushServer();
  // The Mozilla server's HTTPS side uses the committed test certificate: the engine trusts its CA.
  expect(mozilla.ca).toBe(loadTestTls().ca);
  [browser, server] = await Promise.all([
    launchFirefox({ pushServerUrl: mozilla.wsUrl, notifications: "granted" }),
    startTestServer({
      dialect: "sqlite",
      env: {
        SINO_PUSH_CA_FILE: loadTestTls().caPath,
        SINO_WORKER_POLL_MS: "50",
        SINO_ENCRYPTION_THREADS: "1",
      },
    }),
  ]);
  const operators = { url: server.url, origin: "http://localhost:8080" };
  const { secret } = await addToken(await setUpAdmin(operators), "publish");
  publisher = new ApiClient(operators, { bearer: secret, origin: null });
  context = await browser.createBrowserContext();
  page = await context.newPage();
  subscription = await subscribeWithTheBell(page);
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.close();
  await mozilla?.close();
});

interface Shown {
  readonly type: string;
  readonly tag: string | null;
  readonly title: string;
}

/** Opens Sino's home page, starts collecting the worker's `sino:shown` messages, turns the bell on. */
async function subscribeWithTheBell(page: Page): Promise<{ endpoint: string; channelID: string }> {
  await page.goto(server.baseUrl);
  await page.evaluate(() => {
    const w = window as unknown as { sinoShown: unknown[] };
    w.sinoShown = [];
    navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === "sino:shown") w.sinoShown.push(event.data);
    });
  });
  const off = 'header button[aria-pressed="false"][aria-busy="false"]:not([disabled])';
  const on = 'header button[aria-pressed="true"][aria-busy="false"]:not([disabled])';
  await page.waitForSelector(off, { timeout: 20_000 });
  await page.click(off);
  await page.waitForSelector(on, { timeout: 20_000 });
  const endpoint = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).pushManager.getSubscription())?.endpoint);
  const channel = mozilla.channels().find((c) => c.pushEndpoint === endpoint);
  if (endpoint === undefined || channel === undefined) throw new Error(`no Mozilla channel for the page's subscription ${endpoint}`);
  // The bell is "on" only after the server answered: the row is there.
  const rows = await server.database.db.selectFrom("subscriptions").select("endpoint").execute();
  expect(rows).toEqual([{ endpoint }]);
  return { endpoint, channelID: channel.channelID };
}

function shownMessages(page: Page): Promise<Shown[]> {
  return page.evaluate(() => (window as unknown as { sinoShown: Shown[] }).sinoShown);
}

/** Waits (bounded) until the worker has reported showing a notification titled `title`. */
async function waitForShown(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (t: string) => (window as unknown as { sinoShown: Shown[] }).sinoShown.some((m) => m.title === t),
    { timeout: 20_000 },
    title,
  );
}

/** POST /api/v1/notifications to everyone with the publish token; resolves with the notification once the engine finished it. */
async function publish(input: { title: string; body: string; url?: string }) {
  const res = await publisher.post("/api/v1/notifications", input);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = Number(res.body.notification.id);
  return waitForNotification(() => server.delivery.getNotification(id));
}

describe("delivery from Sino's engine to Firefox ESR through a Mozilla push server", () => {
  it("Firefox decrypts what the engine sent, the worker shows it, and the push server records ack 100", async () => {
    const { channelID } = subscription;
    const done = await publish({ title: "Sino chegou", body: "Notificação enviada pelo motor de entrega", url: "https://sino.example.com/ofertas" });
    const tag = `sino-${done.id}`;
    expect(done).toMatchObject({ status: "completed", counts: { queued: 1, accepted: 1, failed: 0, removed: 0, retrying: 0 } });

    const version = mozilla.lastVersion(channelID);
    expect(version).toBeDefined();
    const ack = await mozilla.waitForAck((a) => a.version === version);
    expect(ack).toMatchObject({ channelID, code: ACK_DELIVERED, kind: "ack" });

    await waitForShown(page, "Sino chegou");
    const notifications = await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
    });
    expect(notifications).toContainEqual({ title: "Sino chegou", body: "Notificação enviada pelo motor de entrega", tag });
    expect((await shownMessages(page)).filter((m) => m.tag === tag)).toEqual([{ type: "sino:shown", tag, title: "Sino chegou" }]);
  });

  it("a message encrypted for keys other than the subscription's is refused by Firefox with ack 101 and never shown", async () => {
    const { endpoint, channelID } = subscription;
    const real = await server.database.db.selectFrom("subscriptions").select(["p256dh", "auth"]).where("endpoint", "=", endpoint).executeTakeFirstOrThrow();
    const shownBefore = (await shownMessages(page)).length;

    // Someone else's keys in the stored row: the engine encrypts for them, the push service
    // (which cannot read bodies) accepts, and only the browser can tell.
    const stranger = createECDH("prime256v1");
    stranger.generateKeys();
    await server.database.db
      .updateTable("subscriptions")
      .set({ p256dh: stranger.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") })
      .where("endpoint", "=", endpoint)
      .execute();
    const wrong = await publish({ title: "Chave errada", body: "não é para você" });
    expect(wrong.counts).toMatchObject({ queued: 1, accepted: 1 });
    const wrongVersion = mozilla.lastVersion(channelID);
    const refused = await mozilla.waitForAck((a) => a.version === wrongVersion);
    expect(refused).toMatchObject({ channelID, code: ACK_DECRYPTION_ERROR });

    // No push event fired: with the real keys back, the next message is the first and only one
    // the worker reports showing since.
    await server.database.db.updateTable("subscriptions").set(real).where("endpoint", "=", endpoint).execute();
    const right = await publish({ title: "Chave certa", body: "agora sim" });
    const rightVersion = mozilla.lastVersion(channelID);
    expect(rightVersion).not.toBe(wrongVersion);
    expect((await mozilla.waitForAck((a) => a.version === rightVersion)).code).toBe(ACK_DELIVERED);
    await waitForShown(page, "Chave certa");
    expect((await shownMessages(page)).slice(shownBefore)).toEqual([{ type: "sino:shown", tag: `sino-${right.id}`, title: "Chave certa" }]);
    const titles = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));
    expect(titles).toContain("Chave certa");
    expect(titles).not.toContain("Chave errada");
  });
});
