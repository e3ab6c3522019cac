/**
 * Notify one person (issue 17), in Firefox ESR with nothing stubbed (TESTING.md §4): a site embeds
 * Sino; its server-rendered page names the signed-in person (`data-user` with the signature the
 * host's server computes: hex HMAC-SHA256 of the id with the site's identity secret); a `users` send
 * reaches that person's browser only, decrypted by Firefox and shown by the site's worker; a second
 * Firefox profile, identified as someone else through `Sino.identify()`, gets nothing; after
 * `Sino.forget()` (sign-out) a `users` send to the first person reaches nobody and says so
 * (`usersWithoutSubscriptions`), while a broadcast still reaches both browsers. A local https
 * webhook receiver gets the signed events of it all and checks each signature the way the README
 * tells integrators to (not with Sino's code).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForNotification } from "../support/delivery.js";
import { launchFirefox } from "../support/firefox.js";
import { loadTestTls } from "../support/fake-push/test-tls.js";
import { ACK_DELIVERED } from "../support/mozilla-push/protocol.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";
import type { Channel } from "../support/mozilla-push/mozilla-push-server.js";
import { registerSite, startEmbedSite, type EmbedSite } from "./support/embed-site.js";
import { pushSubscriptionOf, recordShownMessages, useFirefoxRealPush } from "./support/firefox-real-push.js";

const ANA = "ana-4821";
const BIA = "Bia Souza #77";

// The receiver is on 127.0.0.1 with the test CA's certificate: allowed for tests only.
const env = useFirefoxRealPush({ env: { SINO_WEBHOOK_ALLOW_PRIVATE: "true", SINO_WEBHOOK_CA_FILE: loadTestTls().caPath } });
let receiver: WebhookReceiver;
let webhookSecret: string;
/** What the first test sent, for the webhook check that follows it. */
let sent: { toAna: string; anaSubscription: string; biaSubscription: string } | undefined;
let site: EmbedSite;
let siteId: string;
let identitySecret: string;
/** A second Firefox profile (its own push UAID, storage and service workers): another person's computer. */
let otherBrowser: Browser;

/** What the host app's server computes and hands to its page (README, "Notificar uma pessoa"). */
const signatureOf = (userId: string): string => createHmac("sha256", identitySecret).update(userId, "utf8").digest("hex");

beforeAll(async () => {
  const [embedSite, second] = await Promise.all([
    startEmbedSite({ sinoUrl: env.sino.baseUrl, siteKey: null }),
    launchFirefox({ pushServerUrl: env.mozilla.wsUrl, notifications: "granted" }),
  ]);
  site = embedSite;
  otherBrowser = second;
  const registered = await registerSite(env.admin, site.origin);
  siteId = registered.id;
  site.setSiteKey(registered.key);
  const res = await env.admin.post(`/api/v1/sites/${siteId}/identity-secret`, {});
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  identitySecret = String(res.body.secret);
  expect(identitySecret).toMatch(/^[0-9a-f]{64}$/);
  expect(res.body.site.identity).toMatchObject({ verification: true, hasSecret: true });

  receiver = await startWebhookReceiver();
  const hook = await env.admin.post("/api/v1/webhooks", {
    url: `${receiver.origin}/eventos-do-sino`,
    events: ["subscription.created", "person.identified", "person.forgotten", "recipient.accepted", "notification.completed"],
  });
  expect(hook.status, JSON.stringify(hook.body)).toBe(201);
  webhookSecret = String(hook.body.secret);
  receiver.secret = webhookSecret;
});
afterAll(async () => {
  await receiver?.close();
  await otherBrowser?.close();
  await site?.close();
});

/** The README's check of a Standard Webhooks signature (`webhook-signature: v1,<base64>`), kept independent of Sino's code. */
function webhookAuthentic(headers: Readonly<Record<string, string | string[] | undefined>>, body: string, secret: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((item) => {
    const [version, signature = ""] = item.split(",");
    const received = Buffer.from(signature, "base64");
    return version === "v1" && received.length === expected.length && timingSafeEqual(received, expected);
  });
}

interface WebhookPayload {
  type: string;
  data: Record<string, unknown>;
}

/** The events received so far, each checked: signed with the webhook's secret, and the same to the reference library. */
function receivedEvents(): WebhookPayload[] {
  return receiver.received.map((request) => {
    expect(webhookAuthentic(request.headers, request.body, webhookSecret)).toBe(true);
    expect(webhookAuthentic(request.headers, request.body, "whsec_" + Buffer.alloc(24).toString("base64"))).toBe(false);
    expect(request.verified).toBeDefined();
    expect(request.headers["content-type"]).toMatch(/^application\/json/);
    return JSON.parse(request.body) as WebhookPayload;
  });
}

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

/** Who Sino holds each of this test's subscriptions for, by endpoint. */
async function peopleByEndpoint(): Promise<Record<string, string | null>> {
  const rows = await env.sino.database.db.selectFrom("subscriptions").select(["endpoint", "person_id", "site_id"]).execute();
  for (const row of rows) expect(row.site_id).toBe(Number(siteId));
  return Object.fromEntries(rows.map((row) => [row.endpoint, row.person_id]));
}

/** Runs a `window.Sino` call in the page; resolves with the rejection's code when it rejects. */
async function sinoCall(page: Page, call: "identify" | "forget", ...args: string[]): Promise<string | null> {
  return page.evaluate(
    async (name, values) => {
      const sino = (window as unknown as { Sino: Record<string, (...a: string[]) => Promise<unknown>> & { ready: Promise<unknown> } }).Sino;
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

/** A send through the API as the host app makes it; resolves with the create answer once delivered. */
async function send(body: Record<string, unknown>): Promise<{ id: string; targeted: number; usersWithoutSubscriptions: string[] }> {
  const res = await env.publisher.post("/api/v1/notifications", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = String(res.body.notification.id);
  await waitForNotification(() => env.sino.delivery.getNotification(Number(id)));
  return { id, targeted: Number(res.body.targeted), usersWithoutSubscriptions: res.body.usersWithoutSubscriptions as string[] };
}

describe("notifying one person in Firefox ESR, on a site's origin, with real push subscriptions", () => {
  it("reaches the identified person's browser only, and nobody once they sign out, while a broadcast reaches everyone", async () => {
    // Ana's computer: the page names her on load (data-user); she turns the bell on.
    const anaContext = await env.browser.createBrowserContext();
    const anaPage = await anaContext.newPage();
    await anaPage.goto(site.pageUrl({ data: { "data-user": ANA, "data-user-signature": signatureOf(ANA) } }));
    await recordShownMessages(anaPage);
    const anaChannel = await turnBellOn(anaPage);

    // Bia's computer (another Firefox profile): identified by the JS API before turning the bell on;
    // the identification is applied by the registration.
    const biaContext = await otherBrowser.createBrowserContext();
    const biaPage = await biaContext.newPage();
    await biaPage.goto(site.pageUrl());
    await recordShownMessages(biaPage);
    expect(await sinoCall(biaPage, "identify", BIA, signatureOf(BIA))).toBeNull();
    const biaChannel = await turnBellOn(biaPage);
    expect(biaChannel.uaid).not.toBe(anaChannel.uaid);

    expect(await peopleByEndpoint()).toEqual({ [anaChannel.pushEndpoint]: ANA, [biaChannel.pushEndpoint]: BIA });

    // Bia's page cannot claim to be Ana without Ana's signature: refused with the API's code, nothing changed.
    expect(await sinoCall(biaPage, "identify", ANA, signatureOf(BIA))).toBe("user_signature_invalid");
    expect(await peopleByEndpoint()).toEqual({ [anaChannel.pushEndpoint]: ANA, [biaChannel.pushEndpoint]: BIA });

    // A send to Ana: her browser decrypts and shows it; Bia's gets nothing at all.
    const toAna = { title: "Seu pedido #4821 saiu para entrega", body: "Chega hoje até as 18h." };
    const first = await send({ ...toAna, audience: { type: "users", users: [ANA] }, category: "transactional" });
    expect(first).toMatchObject({ targeted: 1, usersWithoutSubscriptions: [] });
    const anaVersion = env.mozilla.lastVersion(anaChannel.channelID);
    expect(anaVersion).toBeDefined();
    expect((await env.mozilla.waitForAck((a) => a.version === anaVersion)).code).toBe(ACK_DELIVERED);
    await waitShown(anaPage, toAna.title);
    const shown = await anaPage.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body })),
    );
    expect(shown).toContainEqual(toAna);
    expect(env.mozilla.notifications().filter((n) => n.channelID === biaChannel.channelID)).toEqual([]);

    // Ana signs out: her subscription stays, anonymous; a send to her now reaches nobody, and says so.
    expect(await sinoCall(anaPage, "forget")).toBeNull();
    expect(await peopleByEndpoint()).toEqual({ [anaChannel.pushEndpoint]: null, [biaChannel.pushEndpoint]: BIA });
    expect(await anaPage.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("sino:person:")))).toEqual([]);
    const afterSignOut = await send({ title: "Seu pedido #4821 foi entregue", body: "Bom apetite!", audience: { type: "users", users: [ANA] }, category: "transactional" });
    expect(afterSignOut).toMatchObject({ targeted: 0, usersWithoutSubscriptions: [ANA] });

    // A broadcast still reaches both browsers (and is the only other thing Ana's shows).
    const everyone = { title: "Feira no sábado", body: "Das 8h às 13h, na praça." };
    await send(everyone);
    for (const [page, channel] of [
      [anaPage, anaChannel],
      [biaPage, biaChannel],
    ] as const) {
      const version = env.mozilla.lastVersion(channel.channelID);
      expect((await env.mozilla.waitForAck((a) => a.version === version)).code).toBe(ACK_DELIVERED);
      await waitShown(page, everyone.title);
    }
    expect(await shownTitles(anaPage)).toEqual([toAna.title, everyone.title]);
    expect(await shownTitles(biaPage)).toEqual([everyone.title]);
    expect(env.mozilla.notifications().filter((n) => n.channelID === anaChannel.channelID)).toHaveLength(2);

    // The integrator's system learned all of it from signed webhooks, without polling.
    const subscriptionIdOf = async (endpoint: string) =>
      String((await env.sino.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", endpoint).executeTakeFirstOrThrow()).id);
    const anaSubscription = await subscriptionIdOf(anaChannel.pushEndpoint);
    const biaSubscription = await subscriptionIdOf(biaChannel.pushEndpoint);
    const expected = [
      { type: "subscription.created", data: { subscriptionId: anaSubscription, userId: ANA, siteId } },
      { type: "person.identified", data: { subscriptionId: anaSubscription, userId: ANA, siteId } },
      { type: "subscription.created", data: { subscriptionId: biaSubscription, userId: BIA, siteId } },
      { type: "person.identified", data: { subscriptionId: biaSubscription, userId: BIA, siteId } },
      { type: "person.forgotten", data: { subscriptionId: anaSubscription, userId: ANA, siteId } },
    ];
    await expect.poll(() => receivedEvents().map((event) => ({ type: event.type, data: event.data })), { timeout: 15_000 }).toEqual(expect.arrayContaining(expected));
    sent = { toAna: first.id, anaSubscription, biaSubscription };

    await anaContext.close();
    await biaContext.close();
  }, 90_000);

  it("tells the webhook the outcome of the send to Ana: accepted for her subscription only, and completed", async () => {
    expect(sent, "the test above ran").toBeDefined();
    const { toAna, anaSubscription, biaSubscription } = sent!;
    await expect
      .poll(() => receivedEvents().map((event) => ({ type: event.type, data: event.data })), { timeout: 15_000 })
      .toEqual(
        expect.arrayContaining([
          { type: "recipient.accepted", data: expect.objectContaining({ notificationId: toAna, subscriptionId: anaSubscription, userId: ANA, siteId }) },
          { type: "notification.completed", data: expect.objectContaining({ notificationId: toAna }) },
        ]),
      );
    const aboutBia = receivedEvents().filter((event) => event.type.startsWith("recipient.") && event.data["notificationId"] === toAna && event.data["subscriptionId"] === biaSubscription);
    expect(aboutBia).toEqual([]);
  });
});
