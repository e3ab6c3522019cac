/**
 * Reach the right group (issue 24), in Firefox ESR with nothing stubbed (TESTING.md §4): a site
 * embeds Sino; two Firefox profiles are identified as two people of the host app. The host's server
 * gives them different trusted tags — one through the API, the other signed with the person's
 * identity and carried by the page — and one page sets a visitor tag. A send to a saved segment
 * that matches one person reaches only that person's browser, decrypted by Firefox and shown by the
 * site's worker; a send to an inline expression over visitor tags reaches only the other one; and a
 * page cannot give itself a trusted tag.
 */
import { createHmac } from "node:crypto";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForNotification } from "../support/delivery.js";
import { launchFirefox } from "../support/firefox.js";
import { ACK_DELIVERED } from "../support/mozilla-push/protocol.js";
import type { Channel } from "../support/mozilla-push/mozilla-push-server.js";
import { registerSite, startEmbedSite, type EmbedSite } from "./support/embed-site.js";
import { pushSubscriptionOf, recordShownMessages, useFirefoxRealPush } from "./support/firefox-real-push.js";

const ANA = "ana-4821";
const BIA = "bia-77";

const env = useFirefoxRealPush();
let site: EmbedSite;
let identitySecret: string;
/** A second Firefox profile (its own push UAID, storage and service workers): another person's computer. */
let otherBrowser: Browser;

/** What the host app's server computes (README, "Segmentos e etiquetas"): the id alone, or the id and its tags. */
function signatureOf(userId: string, tags?: Record<string, string | number | true>): string {
  const lines = tags === undefined ? [] : Object.keys(tags).sort().map((key) => (tags[key] === true ? key : `${key}=${String(tags[key])}`));
  return createHmac("sha256", identitySecret).update([userId, ...lines].join("\n"), "utf8").digest("hex");
}

beforeAll(async () => {
  const [embedSite, second] = await Promise.all([
    startEmbedSite({ sinoUrl: env.sino.baseUrl, siteKey: null }),
    launchFirefox({ pushServerUrl: env.mozilla.wsUrl, notifications: "granted" }),
  ]);
  site = embedSite;
  otherBrowser = second;
  const registered = await registerSite(env.admin, site.origin);
  site.setSiteKey(registered.key);
  const res = await env.admin.post(`/api/v1/sites/${registered.id}/identity-secret`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  identitySecret = String(res.body.secret);
});
afterAll(async () => {
  await otherBrowser?.close();
  await site?.close();
});

function bellSelector(state: "on" | "off"): string {
  return `sino-bell[state="${state}"] >>> button.bell[aria-busy="false"]`;
}

async function turnBellOn(page: Page): Promise<Channel> {
  await page.waitForSelector(bellSelector("off"), { timeout: 20_000 });
  await page.click(bellSelector("off"));
  await page.waitForSelector(bellSelector("on"), { timeout: 20_000 });
  const endpoint = (await pushSubscriptionOf(page))?.endpoint;
  const channel = env.mozilla.channels().find((c) => c.pushEndpoint === endpoint);
  expect(channel).toBeDefined();
  return channel!;
}

/** Runs a `window.Sino` call in the page; resolves with the rejection's code when it rejects. */
async function sinoCall(page: Page, call: "identify" | "tag", ...args: unknown[]): Promise<string | null> {
  return page.evaluate(
    async (name, values) => {
      const sino = (window as unknown as { Sino: Record<string, (...a: unknown[]) => Promise<unknown>> & { ready: Promise<unknown> } }).Sino;
      await sino.ready;
      try {
        await sino[name]!(...values);
        return null;
      } catch (error) {
        return (error as { code?: string }).code ?? String(error);
      }
    },
    call,
    args,
  );
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

/** A send through the API as the host app makes it; resolves with its id and targeted count once delivered. */
async function send(body: Record<string, unknown>): Promise<{ id: string; queued: number }> {
  const res = await env.publisher.post("/api/v1/notifications", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = String(res.body.notification.id);
  const finished = await waitForNotification(() => env.sino.delivery.getNotification(Number(id)));
  return { id, queued: finished.counts.queued };
}

async function delivered(channel: Channel): Promise<void> {
  const version = env.mozilla.lastVersion(channel.channelID);
  expect(version).toBeDefined();
  expect((await env.mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);
}

describe("sending to a segment in Firefox ESR, on a site's origin, with real push subscriptions", () => {
  it("reaches only the browsers of the people and pages the expression matches", async () => {
    // Ana's computer: identified by the page with the tags her host app's server signed.
    const anaContext = await env.browser.createBrowserContext();
    const anaPage = await anaContext.newPage();
    await anaPage.goto(site.pageUrl());
    await recordShownMessages(anaPage);
    const anaTags = { plano: "premium", cidade: "Campinas" };
    expect(await sinoCall(anaPage, "identify", ANA, signatureOf(ANA, anaTags), anaTags)).toBeNull();
    const anaChannel = await turnBellOn(anaPage);

    // Bia's computer (another Firefox profile): identified without tags; the host's server tags her through the API.
    const biaContext = await otherBrowser.createBrowserContext();
    const biaPage = await biaContext.newPage();
    await biaPage.goto(site.pageUrl());
    await recordShownMessages(biaPage);
    expect(await sinoCall(biaPage, "identify", BIA, signatureOf(BIA))).toBeNull();
    const biaChannel = await turnBellOn(biaPage);
    const tagged = await env.admin.request("PUT", `/api/v1/people/${BIA}/tags`, { tags: { plano: "basico", cidade: "Campinas", vip: true } });
    expect(tagged.status, JSON.stringify(tagged.body)).toBe(200);

    // Bia's page tries to make her premium with tags Ana's signature covered: refused, nothing changed.
    expect(await sinoCall(biaPage, "identify", BIA, signatureOf(ANA, anaTags), anaTags)).toBe("user_signature_invalid");
    const biaTags = await env.admin.get(`/api/v1/people/${BIA}/tags`);
    expect(biaTags.body.tags).toEqual({ plano: "basico", cidade: "Campinas", vip: true });
    expect((await env.admin.get(`/api/v1/people/${ANA}/tags`)).body.tags).toEqual(anaTags);

    // A visitor tag set by Bia's page: on her browser only, and never a trusted tag.
    expect(await sinoCall(biaPage, "tag", "interesse", "esportes")).toBeNull();
    expect((await env.admin.get(`/api/v1/people/${BIA}/tags`)).body.tags).not.toHaveProperty("interesse");

    // The live count agrees with what the send will reach.
    const expression = "plano = premium e (cidade = Campinas ou cidade = Cambuí) e não tem vip";
    const count = await env.publisher.post("/api/v1/segments/count", { expression });
    expect(count.status, JSON.stringify(count.body)).toBe(200);
    expect(count.body).toMatchObject({ subscriptions: 1, people: 1 });

    // A saved segment matching Ana: her browser decrypts and shows it; Bia's gets nothing.
    const saved = await env.admin.post("/api/v1/segments", { name: "Premium de Campinas", expression });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const toPremium = { title: "Oferta do plano Premium", body: "Só para assinantes de Campinas." };
    expect(await send({ ...toPremium, audience: { type: "segment", segment: Number(saved.body.segment.id) } })).toMatchObject({ queued: 1 });
    await delivered(anaChannel);
    await waitShown(anaPage, toPremium.title);
    expect(env.mozilla.notifications().filter((n) => n.channelID === biaChannel.channelID)).toEqual([]);

    // An inline expression over visitor tags: Bia's browser only.
    const toSport = { title: "Jogo de domingo", body: "Ingressos à venda." };
    expect(await send({ ...toSport, audience: { type: "segment", expression: "interesse = esportes", tagKinds: "visitor" } })).toMatchObject({ queued: 1 });
    await delivered(biaChannel);
    await waitShown(biaPage, toSport.title);

    expect(await shownTitles(anaPage)).toEqual([toPremium.title]);
    expect(await shownTitles(biaPage)).toEqual([toSport.title]);
    expect(env.mozilla.notifications().filter((n) => n.channelID === anaChannel.channelID)).toHaveLength(1);
    expect(env.mozilla.notifications().filter((n) => n.channelID === biaChannel.channelID)).toHaveLength(1);

    await anaContext.close();
    await biaContext.close();
  }, 90_000);
});
