/**
 * VAPID keys per site and the silent move (issue 20), in Firefox ESR with nothing stubbed
 * (TESTING.md §4): Firefox's own push client, a local Mozilla push server that refuses a push
 * whose VAPID key is not the one the channel was made with, and Sino's real engine.
 *
 * 1. The browser holds a subscription made with ANOTHER sender's key (the test's own pair, as a
 *    previous vendor would have made it), permission granted. The operator imports that key into
 *    the site; the visitor comes back to the page with Sino's embed: the subscription is kept as
 *    it is (same key), registered, and receives a Sino send signed with the imported key.
 * 2. The operator rotates the site's key (a new generated one). The visitor reloads: the bell
 *    replaces the subscription with one under the new key WITHOUT asking (no permission request),
 *    registers it with the old one as proof, reported "migrada"; the next send, signed with the
 *    new key, is shown.
 */
import { createECDH } from "node:crypto";
import type { BrowserContext, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerSite, startEmbedSite, type EmbedSite } from "./support/embed-site.js";
import { expectSendShownAndCounted, pushSubscriptionOf, recordShownMessages, useFirefoxRealPush } from "./support/firefox-real-push.js";
import { waitForNotification } from "../support/delivery.js";

const env = useFirefoxRealPush();
let site: EmbedSite;
let siteId: string;

beforeAll(async () => {
  site = await startEmbedSite({ sinoUrl: env.sino.baseUrl, siteKey: null });
  const registered = await registerSite(env.admin, site.origin);
  siteId = registered.id;
  site.setSiteKey(registered.key);
});
afterAll(async () => {
  await site?.close();
});

function bellSelector(state: "on" | "off"): string {
  return `sino-bell[state="${state}"] >>> button.bell[aria-busy="false"]`;
}

/** The previous vendor's key pair, as `web-push generate-vapid-keys --json` prints it. */
function previousVendorKeys(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const d = ecdh.getPrivateKey();
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: Buffer.concat([Buffer.alloc(32 - d.length), d]).toString("base64url") };
}

/** Counts permission prompts the page asks for (a silent move must make none). */
async function countPermissionRequests(page: Page): Promise<void> {
  await page.evaluateOnNewDocument(() => {
    const original = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
      localStorage.setItem("permissionRequests", String(Number(localStorage.getItem("permissionRequests") ?? "0") + 1));
      return original(...args);
    };
  });
}

async function subscriptionRows() {
  return env.sino.database.db.selectFrom("subscriptions").select(["endpoint", "site_id", "vapid_key_id", "migrated_at"]).execute();
}

async function siteKeyId(): Promise<number | null> {
  const row = await env.sino.database.db.selectFrom("sites").select("vapid_key_id").where("id", "=", Number(siteId)).executeTakeFirstOrThrow();
  return row.vapid_key_id === null ? null : Number(row.vapid_key_id);
}

describe("a site's own VAPID key and the silent move, in Firefox ESR with its real push stack", () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it("keeps another sender's subscription once its key is imported, then moves it silently to the rotated key", async () => {
    context = await env.browser.createBrowserContext();
    const page = await context.newPage();
    await countPermissionRequests(page);
    const vendor = previousVendorKeys();

    // The previous vendor's subscription, on the site's origin, made with the vendor's key (a page
    // without Sino: the vendor's own SDK would have done this).
    await page.goto(`${site.origin}/hello`);
    const vendorEndpoint = await page.evaluate(async (key: string) => {
      const bytes = Uint8Array.from(atob(key.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (key.length % 4)) % 4)), (c) => c.charCodeAt(0));
      const registration = await navigator.serviceWorker.register("/sino-sw.js", { scope: "/" });
      await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
      return subscription.endpoint;
    }, vendor.publicKey);
    expect(env.mozilla.channels().find((c) => c.pushEndpoint === vendorEndpoint)?.key?.replace(/=+$/, "")).toBe(vendor.publicKey);

    // 1. The operator imports the vendor's key into the site; the visitor comes back.
    const imported = await env.admin.put(`/api/v1/sites/${siteId}/vapid-key`, { mode: "import", key: JSON.stringify(vendor) });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const importedId = await siteKeyId();
    await page.goto(site.pageUrl());
    await recordShownMessages(page);
    await page.waitForSelector(bellSelector("on"), { timeout: 30_000 });
    expect((await pushSubscriptionOf(page))?.endpoint).toBe(vendorEndpoint);
    await expect.poll(subscriptionRows, { timeout: 10_000 }).toEqual([{ endpoint: vendorEndpoint, site_id: Number(siteId), vapid_key_id: importedId, migrated_at: null }]);
    const vendorChannel = env.mozilla.channels().find((c) => c.pushEndpoint === vendorEndpoint)!;
    await expectSendShownAndCounted(env, page, vendorChannel, { title: "Chave importada", body: "Assinado com a chave do remetente anterior." });

    // 2. The operator rotates the site's key; the visitor reloads.
    const rotated = await env.admin.put(`/api/v1/sites/${siteId}/vapid-key`, { mode: "generate" });
    expect(rotated.body).toMatchObject({ onPreviousKey: 1, keys: { previous: [{ publicKey: vendor.publicKey, subscriptions: 1 }] } });
    const newKey = rotated.body.keys.current.publicKey as string;
    const newId = await siteKeyId();
    await page.reload();
    await recordShownMessages(page);
    await page.waitForSelector(bellSelector("on"), { timeout: 30_000 });
    await expect.poll(async () => (await pushSubscriptionOf(page))?.endpoint, { timeout: 20_000 }).not.toBe(vendorEndpoint);
    const moved = await pushSubscriptionOf(page);
    const newChannel = env.mozilla.channels().find((c) => c.pushEndpoint === moved?.endpoint);
    expect(newChannel?.key?.replace(/=+$/, "")).toBe(newKey);
    // Moved with proof: the old row went, the new one is on the new key and counted "migrada".
    await expect.poll(subscriptionRows, { timeout: 10_000 }).toEqual([{ endpoint: moved?.endpoint, site_id: Number(siteId), vapid_key_id: newId, migrated_at: expect.anything() }]);
    expect(await page.evaluate(() => localStorage.getItem("permissionRequests"))).toBeNull();
    const keys = (await env.admin.get(`/api/v1/sites/${siteId}/vapid-key`)).body.keys;
    expect(keys).toMatchObject({ migrated: 1, current: { publicKey: newKey, subscriptions: 1 }, previous: [] });
    // The vendor's key is no longer used by anything: deleted at the next key change or prune.
    expect(await env.sino.database.db.selectFrom("vapid_keys").select("id").where("id", "=", importedId!).execute()).toHaveLength(1);

    // The next send is signed with the new key (the push server refuses any other) and shown.
    const before = (await env.sino.database.db.selectFrom("notifications").select("id").execute()).length;
    await env.sino.database.db.deleteFrom("notification_events").execute();
    await expectSendShownAndCounted(env, page, newChannel!, { title: "Chave nova", body: "Depois da troca silenciosa." });
    const last = await env.sino.database.db.selectFrom("notifications").select("id").orderBy("id", "desc").executeTakeFirstOrThrow();
    expect((await waitForNotification(() => env.sino.delivery.getNotification(Number(last.id)))).counts).toMatchObject({ accepted: 1 });
    expect(before).toBe(1);
  });
});
