import { createECDH, randomBytes } from "node:crypto";
import type { Browser, Page } from "puppeteer-core";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscriptionJson } from "../fake-push/keys.js";
import { http1Post, type PushHeaders } from "../fake-push/test-client.js";
import { generateVapidTestKeys } from "../fake-push/vapid-token.js";
import { launchFirefox } from "../firefox.js";
import { startMozillaPushServer, type MozillaPushServer } from "./mozilla-push-server.js";
import { ACK_DECRYPTION_ERROR, ACK_DELIVERED } from "./protocol.js";
import { startPushTestSite } from "./test-site.js";

/**
 * The fully real Web Push path with Firefox ESR, independent of Sino: Firefox subscribes through
 * the local Mozilla push server, the test encrypts with `web-push` and POSTs to the HTTPS push
 * endpoint, Firefox decrypts, the service worker shows a notification, and Firefox acks.
 */
interface BrowserSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

const vapid = generateVapidTestKeys();
let mozilla: MozillaPushServer;
let site: Awaited<ReturnType<typeof startPushTestSite>>;
let browser: Browser;

beforeAll(async () => {
  mozilla = await startMozillaPushServer();
  site = await startPushTestSite();
  browser = await launchFirefox({ pushServerUrl: mozilla.wsUrl });
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  await mozilla?.close();
});

async function subscribe(page: Page, applicationServerKey: string): Promise<BrowserSubscription> {
  await page.goto(site.url);
  return page.evaluate(async (key: string) => {
    const registration = await navigator.serviceWorker.register("/sw.js");
    await navigator.serviceWorker.ready;
    // subscribe() can wait forever when the push server is unreachable: bound it.
    const subscription = await Promise.race([
      registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error("pushManager.subscribe() timed out")), 15_000)),
    ]);
    return subscription.toJSON() as BrowserSubscription;
  }, applicationServerKey);
}

/** Encrypts `payload` for `keys` with web-push and POSTs it to the subscription's push endpoint. */
async function sendPush(endpoint: string, keys: { p256dh: Buffer | string; auth: Buffer | string }, payload: string) {
  const asBuffer = (v: Buffer | string): Buffer => (typeof v === "string" ? Buffer.from(v, "base64url") : v);
  const details = webpush.generateRequestDetails(subscriptionJson(endpoint, { p256dh: asBuffer(keys.p256dh), auth: asBuffer(keys.auth) }), payload, {
    vapidDetails: { subject: "mailto:ops@sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 60,
  });
  return http1Post(details.endpoint, details.headers as PushHeaders, details.body ?? undefined, mozilla.ca);
}

function waitForWorkerMessage(page: Page, text: string): Promise<unknown> {
  return page.waitForFunction((t: string) => (window as unknown as { swMessages: { text: string }[] }).swMessages.some((m) => m.text === t), { timeout: 15_000 }, text);
}

describe("Firefox ESR with the local Mozilla push server", () => {
  it("subscribes, receives a push encrypted for its keys, shows it, and acks 100", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const subscription = await subscribe(page, vapid.publicKey);
      expect(subscription.endpoint).toMatch(new RegExp(`^${mozilla.pushOrigin}/wpush/[0-9a-f-]{36}$`));
      const channel = mozilla.channels().find((c) => subscription.endpoint === c.pushEndpoint);
      expect(Buffer.from(channel?.key ?? "", "base64url").toString("base64url")).toBe(vapid.publicKey);

      const reply = await sendPush(subscription.endpoint, subscription.keys, "Olá do Sino");
      expect(reply.status).toBe(201);
      const version = mozilla.lastVersion(channel!.channelID)!;
      const ack = await mozilla.waitForAck((a) => a.version === version);
      expect(ack).toMatchObject({ channelID: channel!.channelID, code: ACK_DELIVERED, kind: "ack" });

      await waitForWorkerMessage(page, "Olá do Sino");
      const titles = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => n.title);
      });
      expect(titles).toContain("push: Olá do Sino");
    } finally {
      await context.close();
    }
  });

  it("delivers to the service worker with no tab of the site open", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const subscription = await subscribe(page, vapid.publicKey);
      const channelID = mozilla.channels().find((c) => subscription.endpoint === c.pushEndpoint)!.channelID;
      await page.goto("about:blank");
      expect((await sendPush(subscription.endpoint, subscription.keys, "sem aba")).status).toBe(201);
      const ack = await mozilla.waitForAck((a) => a.version === mozilla.lastVersion(channelID));
      expect(ack.code).toBe(ACK_DELIVERED);
    } finally {
      await context.close();
    }
  });

  it("refuses a push encrypted for other keys: ack 101 and no push event", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const subscription = await subscribe(page, vapid.publicKey);
      const channel = mozilla.channels().find((c) => subscription.endpoint === c.pushEndpoint)!;
      const stranger = createECDH("prime256v1");
      stranger.generateKeys();
      const reply = await sendPush(subscription.endpoint, { p256dh: stranger.getPublicKey(), auth: randomBytes(16) }, "não é para você");
      expect(reply.status).toBe(201);
      const version = mozilla.lastVersion(channel.channelID)!;
      const ack = await mozilla.waitForAck((a) => a.version === version);
      expect(ack.code).toBe(ACK_DECRYPTION_ERROR);

      // The worker saw nothing: a correct push sent afterwards is the first message it reports.
      await sendPush(subscription.endpoint, subscription.keys, "depois");
      await waitForWorkerMessage(page, "depois");
      const messages = await page.evaluate(() => (window as unknown as { swMessages: { text: string }[] }).swMessages.map((m) => m.text));
      expect(messages).toEqual(["depois"]);
    } finally {
      await context.close();
    }
  });

  it("answers 403 to a push signed with another VAPID key than the subscription's", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const other = generateVapidTestKeys();
      const subscription = await subscribe(page, other.publicKey);
      const reply = await sendPush(subscription.endpoint, subscription.keys, "chave errada");
      expect(reply.status).toBe(403);
      expect(mozilla.pushService.stats().vapidFailures.key_mismatch).toBeGreaterThanOrEqual(1);
    } finally {
      await context.close();
    }
  });

  it("answers 410 for a subscription the browser removed", async () => {
    const context = await browser.createBrowserContext();
    try {
      const page = await context.newPage();
      const subscription = await subscribe(page, vapid.publicKey);
      const channelID = mozilla.channels().find((c) => subscription.endpoint === c.pushEndpoint)!.channelID;
      const removed = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.pushManager.getSubscription())?.unsubscribe();
      });
      expect(removed).toBe(true);
      expect(mozilla.channels().some((c) => c.channelID === channelID)).toBe(false);
      expect((await sendPush(subscription.endpoint, subscription.keys, "tarde demais")).status).toBe(410);
    } finally {
      await context.close();
    }
  });
});
