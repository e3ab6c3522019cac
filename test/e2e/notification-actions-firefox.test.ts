/**
 * The full notification (issue 19) in Firefox ESR with nothing stubbed (TESTING.md §4): a site
 * embeds Sino, Firefox's own push client subscribes through a local Mozilla push server, sends go
 * through Sino's API and engine.
 *
 * Declarative Web Push: Firefox ESR 153 does not show declarative push messages, and no preference
 * turns that on (the binary has only the `webPush.declarative` / `declarativeMutable` telemetry
 * counters; see the README). The first test holds that finding against the real browser, so it
 * fails the day an ESR starts showing them; the next ones check that the bell reports "no" and that
 * a declarative push (as Safari's subscriptions get) still reaches Sino's worker, which shows it
 * from its `notification` member and counts it.
 *
 * Action buttons: a click on action 1, made through Firefox's own alert listener (a trusted
 * `notificationclick` whose `action` is "1"), opens that action's link, is counted with its action,
 * and the page it opened receives `sino:click` with the notification's data.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserContext, Page } from "puppeteer-core";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForNotification } from "../support/delivery.js";
import { subscriptionJson } from "../support/fake-push/keys.js";
import { http1Post, type PushHeaders } from "../support/fake-push/test-client.js";
import { generateVapidTestKeys } from "../support/fake-push/vapid-token.js";
import { clickFirefoxNotification } from "../support/firefox-notification-click.js";
import type { Channel } from "../support/mozilla-push/mozilla-push-server.js";
import { ACK_DELIVERED } from "../support/mozilla-push/protocol.js";
import { registerSite, startEmbedSite, type EmbedSite } from "./support/embed-site.js";
import { expectRealSubscription, recordShownMessages, useFirefoxRealPush } from "./support/firefox-real-push.js";

/**
 * Preference names a Declarative Web Push switch could have (none exists in Firefox ESR 153's
 * binary or omni.ja; Firefox ignores unknown ones): all on, so the first test would see the feature
 * if any of them turned it on.
 */
const DECLARATIVE_PREF_GUESSES = {
  "dom.push.declarative.enabled": true,
  "dom.webpush.declarative.enabled": true,
  "dom.push.declarativeWebPush.enabled": true,
  "dom.push.declarative_web_push.enabled": true,
  "dom.push.window.enabled": true,
  "dom.webnotifications.navigate.enabled": true,
};

const env = useFirefoxRealPush({ systemAccess: true, extraPrefs: DECLARATIVE_PREF_GUESSES });
let site: EmbedSite;
let siteId: string;
let context: BrowserContext;
let page: Page;
let channel: Channel;

function bellSelector(state: "on" | "off"): string {
  return `sino-bell[state="${state}"] >>> button.bell[aria-busy="false"]`;
}

beforeAll(async () => {
  site = await startEmbedSite({ sinoUrl: env.sino.baseUrl, siteKey: null });
  const registered = await registerSite(env.admin, site.origin);
  siteId = registered.id;
  site.setSiteKey(registered.key);
  context = await env.browser.createBrowserContext();
  page = await context.newPage();
  await page.goto(site.pageUrl());
  await recordShownMessages(page);
  await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
  await page.click(bellSelector("off"));
  await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });
  channel = await expectRealSubscription(env, page, { origin: site.origin, id: siteId });
});
afterAll(async () => {
  await context?.close();
  await site?.close();
});

/** POST /notifications to everyone with the publish token; resolves once the engine finished it, acked 100 by Firefox. */
async function publish(input: Record<string, unknown>): Promise<string> {
  const res = await env.publisher.post("/api/v1/notifications", input);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const done = await waitForNotification(() => env.sino.delivery.getNotification(Number(res.body.notification.id)));
  expect(done.counts).toMatchObject({ queued: 1, accepted: 1, failed: 0 });
  const version = env.mozilla.lastVersion(channel.channelID);
  expect((await env.mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);
  return String(done.id);
}

async function waitForShown(title: string): Promise<void> {
  await page.waitForFunction(
    (t: string) => ((window as unknown as { sinoShown?: Array<{ title: string }> }).sinoShown ?? []).some((m) => m.title === t),
    { timeout: 20_000 },
    title,
  );
}

async function shownNotification(title: string) {
  const all = await page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      tag: n.tag,
      requireInteraction: n.requireInteraction,
      actions: (n as Notification & { actions?: ReadonlyArray<{ action: string; title: string }> }).actions?.map((a) => ({ action: a.action, title: a.title })) ?? [],
    })),
  );
  return all.find((n) => n.title === title);
}

function eventsOf(notificationId: string) {
  return env.sino.database.db
    .selectFrom("notification_events")
    .select(["type", "action"])
    .where("notification_id", "=", Number(notificationId))
    .orderBy("type")
    .execute();
}

describe("Declarative Web Push in Firefox ESR 153", () => {
  /** A site of its own whose service worker has no push handler: only the browser could show a push. */
  let bare: Server;
  let bareUrl: string;
  beforeAll(async () => {
    bare = createServer((req, res) => {
      if (req.url === "/sw.js") res.writeHead(200, { "content-type": "text/javascript" }).end('self.addEventListener("install", () => self.skipWaiting());');
      else res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end('<!doctype html><meta charset="utf-8"><title>sem push</title>');
    });
    bare.listen(0, "127.0.0.1");
    await once(bare, "listening");
    bareUrl = `http://localhost:${(bare.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => bare.close(() => resolve())));

  it("does not show a declarative push by itself: a worker with no push handler gets it delivered (ack 100) and nothing is shown", async () => {
    const vapid = generateVapidTestKeys();
    const other = await env.browser.createBrowserContext();
    try {
      const barePage = await other.newPage();
      await barePage.goto(bareUrl);
      // Neither member of the Push API's declarative feature is here: no PushManager on Window, no Notification.navigate.
      expect(await barePage.evaluate(() => ({ pushManager: "pushManager" in window, navigate: "navigate" in Notification.prototype }))).toEqual({
        pushManager: false,
        navigate: false,
      });
      const sub = (await barePage.evaluate(async (key: string) => {
        const registration = await navigator.serviceWorker.register("/sw.js");
        await navigator.serviceWorker.ready;
        return (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })).toJSON();
      }, vapid.publicKey)) as { endpoint: string; keys: { p256dh: string; auth: string } };
      const message = JSON.stringify({
        web_push: 8030,
        notification: { title: "Declarativa", body: "mostrada pelo navegador?", navigate: bareUrl, lang: "pt-BR", dir: "ltr", tag: "d1" },
        mutable: false,
      });
      const details = webpush.generateRequestDetails(
        subscriptionJson(sub.endpoint, { p256dh: Buffer.from(sub.keys.p256dh, "base64url"), auth: Buffer.from(sub.keys.auth, "base64url") }),
        message,
        { vapidDetails: { subject: "mailto:ops@sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey }, TTL: 60 },
      );
      expect((await http1Post(details.endpoint, details.headers as PushHeaders, details.body ?? undefined, env.mozilla.ca)).status).toBe(201);
      const bareChannel = env.mozilla.channels().find((c) => c.pushEndpoint === sub.endpoint)!;
      const ack = await env.mozilla.waitForAck((a) => a.version === env.mozilla.lastVersion(bareChannel.channelID));
      expect(ack.code).toBe(ACK_DELIVERED);
      // Delivered and dispatched: a notification the browser showed would be listed by now, with
      // the worker (and its registration) alive after the push event.
      const shown = await barePage.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));
      expect(shown).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("the bell reports no declarative support on each visit: a subscription marked declarative falls back by itself", async () => {
    expect(await page.evaluate(() => "pushManager" in window)).toBe(false);
    // As if an earlier visit (another browser version) had said yes: the next visit's re-registration says no.
    await env.sino.database.db.updateTable("subscriptions").set({ declarative: 1 }).execute();
    await page.reload();
    await recordShownMessages(page);
    await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });
    await expect
      .poll(async () => (await env.sino.database.db.selectFrom("subscriptions").select("declarative").execute()).map((r) => Number(r.declarative)), { timeout: 20_000 })
      .toEqual([0]);
  });

  it("a declarative push (what a Safari subscription gets) reaches Sino's worker, which shows it from `notification` and counts it shown", async () => {
    // As if this browser had said it shows declarative pushes: the engine sends this target the declarative form.
    await env.sino.database.db.updateTable("subscriptions").set({ declarative: 1 }).execute();
    try {
      const id = await publish({
        title: "Vacinação no sábado",
        body: "Postos abertos das 8h às 17h.",
        url: "/vacinas",
        requireInteraction: true,
        actions: [{ label: "Ver postos", url: "/postos" }],
        data: { tela: "vacinas" },
      });
      const stored = await env.sino.database.db.selectFrom("notifications").select("declarative_payload").where("id", "=", Number(id)).executeTakeFirstOrThrow();
      expect(JSON.parse(String(stored.declarative_payload))).toMatchObject({ web_push: 8030, mutable: true });

      await waitForShown("Vacinação no sábado");
      expect(await shownNotification("Vacinação no sábado")).toEqual({
        title: "Vacinação no sábado",
        body: "Postos abertos das 8h às 17h.",
        tag: `sino-${id}`,
        requireInteraction: true,
        actions: [{ action: "1", title: "Ver postos" }],
      });
      await expect.poll(() => eventsOf(id), { timeout: 20_000 }).toContainEqual({ type: "shown", action: null });
    } finally {
      await env.sino.database.db.updateTable("subscriptions").set({ declarative: 0 }).execute();
    }
  });
});

describe("action buttons in Firefox ESR", () => {
  it("a click on action 1 opens its link, is counted with its action, and the opened page receives sino:click with the data", async () => {
    // A path: the site's worker resolves it against the site's origin (the test site is http://localhost, which only a path may name).
    const actionLink = `${site.origin}/?record-clicks=1&acao=1`;
    const id = await publish({
      title: "Agenda da semana",
      body: "Toque para ver a agenda",
      url: "/agenda",
      // Firefox's alert window closes a notification by itself after a few seconds otherwise.
      requireInteraction: true,
      actions: [
        { label: "Abrir agenda", url: "/?record-clicks=1&acao=1" },
        { label: "Mapa", url: "/mapa" },
      ],
      data: { tela: "agenda", dia: 3 },
    });
    await waitForShown("Agenda da semana");
    expect((await shownNotification("Agenda da semana"))?.actions).toEqual([
      { action: "1", title: "Abrir agenda" },
      { action: "2", title: "Mapa" },
    ]);

    const opened = new Promise<Page>((resolve) => {
      context.on("targetcreated", (target) => {
        void target.page().then((p) => {
          if (p) resolve(p);
        });
      });
    });
    await clickFirefoxNotification(env.browser, "Agenda da semana", "1");

    const newPage = await opened;
    await newPage.waitForFunction(() => (localStorage.getItem("sinoClicks") ?? "[]") !== "[]", { timeout: 20_000 });
    expect(newPage.url()).toBe(actionLink);
    const clicks = (await newPage.evaluate(() => JSON.parse(localStorage.getItem("sinoClicks") ?? "[]") as unknown[])) as unknown[];
    expect(clicks).toEqual([{ href: actionLink, detail: { notificationId: id, action: "1", url: actionLink, data: { tela: "agenda", dia: 3 } } }]);
    await expect.poll(() => eventsOf(id), { timeout: 20_000 }).toEqual(
      expect.arrayContaining([
        { type: "clicked", action: "1" },
        { type: "shown", action: null },
      ]),
    );
    // Closed by the worker on click: it is no longer listed.
    expect(await shownNotification("Agenda da semana")).toBeUndefined();
  });
});
