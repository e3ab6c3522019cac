/**
 * The frequency cap in Firefox ESR with nothing stubbed (TESTING.md §4): a site embeds Sino, its
 * page names the signed-in person (`data-user` with the signature the host's server computes), the
 * person turns the bell on; three marketing pushes reach the browser and are shown; the fourth in
 * 24 hours is held back (`limited`: nothing reaches the push server for it) while a transactional
 * push to the person right after still reaches the browser and is shown.
 */
import { createHmac } from "node:crypto";
import type { Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForNotification } from "../support/delivery.js";
import { ACK_DELIVERED } from "../support/mozilla-push/protocol.js";
import type { Channel } from "../support/mozilla-push/mozilla-push-server.js";
import { registerSite, startEmbedSite, type EmbedSite } from "./support/embed-site.js";
import { pushSubscriptionOf, recordShownMessages, useFirefoxRealPush } from "./support/firefox-real-push.js";

const ANA = "ana-4821";

const env = useFirefoxRealPush({ env: { SINO_FREQUENCY_CAP: "3", SINO_SLEEPING_DAYS: "30" } });
let site: EmbedSite;
let identitySecret: string;

beforeAll(async () => {
  site = await startEmbedSite({ sinoUrl: env.sino.baseUrl, siteKey: null });
  const registered = await registerSite(env.admin, site.origin);
  site.setSiteKey(registered.key);
  const res = await env.admin.post(`/api/v1/sites/${registered.id}/identity-secret`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  identitySecret = String(res.body.secret);
});
afterAll(async () => {
  await site?.close();
});

const signatureOf = (userId: string): string => createHmac("sha256", identitySecret).update(userId, "utf8").digest("hex");
const bellSelector = (state: "on" | "off") => `sino-bell[state="${state}"] >>> button.bell[aria-busy="false"]`;

async function turnBellOn(page: Page): Promise<Channel> {
  await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
  await page.click(bellSelector("off"));
  await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });
  const endpoint = (await pushSubscriptionOf(page))?.endpoint;
  const channel = env.mozilla.channels().find((c) => c.pushEndpoint === endpoint);
  expect(channel).toBeDefined();
  return channel!;
}

async function shownTitles(page: Page): Promise<string[]> {
  return page.evaluate(() => ((window as unknown as { sinoShown?: Array<{ title: string }> }).sinoShown ?? []).map((m) => m.title));
}

async function waitShown(page: Page, title: string): Promise<void> {
  await page.waitForFunction(
    (expected) => ((window as unknown as { sinoShown?: Array<{ title: string }> }).sinoShown ?? []).some((m) => m.title === expected),
    { timeout: 20_000 },
    title,
  );
}

async function send(body: Record<string, unknown>) {
  const res = await env.publisher.post("/api/v1/notifications", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return waitForNotification(() => env.sino.delivery.getNotification(Number(res.body.notification.id)));
}

describe("the frequency cap in Firefox ESR, with a real push subscription", () => {
  it("holds back the 4th marketing push in 24 h but delivers a transactional one to the person", async () => {
    const context = await env.browser.createBrowserContext();
    const page = await context.newPage();
    await page.goto(site.pageUrl({ data: { "data-user": ANA, "data-user-signature": signatureOf(ANA) } }));
    await recordShownMessages(page);
    const channel = await turnBellOn(page);

    const offers = ["Oferta de segunda", "Oferta de terça", "Oferta de quarta"];
    for (const title of offers) {
      const done = await send({ title, body: "Só hoje." });
      expect(done.counts).toMatchObject({ queued: 1, accepted: 1, limited: 0 });
      const version = env.mozilla.lastVersion(channel.channelID);
      expect((await env.mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);
      await waitShown(page, title);
    }
    const pushedBefore = env.mozilla.notifications().filter((n) => n.channelID === channel.channelID).length;
    expect(pushedBefore).toBe(3);

    // The fourth marketing push in 24 hours: limited, never handed to the push server.
    const fourth = await send({ title: "Oferta de quinta", body: "Mais uma." });
    expect(fourth.counts).toMatchObject({ queued: 1, accepted: 0, failed: 0, limited: 1 });
    expect(env.mozilla.notifications().filter((n) => n.channelID === channel.channelID)).toHaveLength(3);

    // A transactional push to Ana right after: delivered and shown.
    const order = { title: "Seu pedido #4821 saiu para entrega", body: "Chega hoje até as 18h." };
    const transactional = await send({ ...order, audience: { type: "users", users: [ANA] }, category: "transactional" });
    expect(transactional.counts).toMatchObject({ queued: 1, accepted: 1, limited: 0 });
    const version = env.mozilla.lastVersion(channel.channelID);
    expect((await env.mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);
    await waitShown(page, order.title);
    expect(await shownTitles(page)).toEqual([...offers, order.title]);
    expect(env.mozilla.notifications().filter((n) => n.channelID === channel.channelID)).toHaveLength(4);
    await context.close();
  }, 120_000);
});
