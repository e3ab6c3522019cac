/**
 * The embedded bell (issue 9) in a real Chromium: a site on one origin (its own port) includes
 * `sino.js` from Sino on another origin (the real test server, on SQLite and PostgreSQL). The push
 * service inside the page is stubbed (TESTING.md §2); the site's service worker, which imports
 * Sino's, is real, and so are CORS, the API and the database.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { DIALECTS } from "../support/db.js";
import { solidPng } from "../support/png.js";
import type { ApiClient } from "../support/operators.js";
import type { TestServer } from "../support/server.js";
import { answerPermissionWhenAsked, BELL_TEXT, useChromiumWithInsecureHost } from "./support/bell-chromium.js";
import { countStartingWith, recordConsole } from "./support/console-log.js";
import { adminOf, registerSite, startEmbedSite, startSinoForEmbed, type EmbedSite } from "./support/embed-site.js";
import { axeViolations } from "./support/axe.js";
import { embedBell, embedIconColour, settledEmbedBell } from "./support/embed-page.js";
import { installPushStub, makeSubscriptionKeys, STUB_STORAGE, testEndpoint } from "./support/push-stub.js";

/** A name Chromium resolves to 127.0.0.1 but does not treat as a secure context. */
const INSECURE_HOST = "site.test";

const browser = useChromiumWithInsecureHost(INSECURE_HOST);

interface Opened {
  context: BrowserContext;
  page: Page;
  consoleMessages: string[];
  endpoint: string;
  keys: ReturnType<typeof makeSubscriptionKeys>;
}

async function subscriptionRows(sino: TestServer) {
  return sino.database.db.selectFrom("subscriptions").select(["endpoint", "p256dh", "auth", "site_id"]).execute();
}

for (const dialect of DIALECTS) {
  describe(`the embedded bell on another site (${dialect})`, () => {
    let sino: TestServer;
    let admin: ApiClient;
    let site: EmbedSite;
    let siteId: string;
    let contexts: BrowserContext[] = [];

    beforeEach(async () => {
      sino = await startSinoForEmbed({ dialect });
      admin = await adminOf(sino);
      // The site's origin (its port) is known once it listens: register it, then hand it the key.
      site = await startEmbedSite({ sinoUrl: sino.baseUrl, siteKey: null });
      const registered = await registerSite(admin, site.origin);
      siteId = registered.id;
      site.setSiteKey(registered.key);
    });
    afterEach(async () => {
      await Promise.all(contexts.map((context) => context.close()));
      contexts = [];
      await site?.close();
      await sino?.close();
    });

    async function open(options: { grant?: boolean; mode?: "ok" | "throw"; url?: string } = {}): Promise<Opened> {
      const context = await browser().newContext();
      contexts.push(context);
      if (options.grant ?? true) await context.grantPermissions(["notifications"], { origin: site.origin });
      const keys = makeSubscriptionKeys();
      const endpoint = testEndpoint();
      await installPushStub(context, { endpoint, keys, mode: options.mode ?? "ok" });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const consoleMessages = recordConsole(page);
      await page.goto(options.url ?? site.pageUrl());
      return { context, page, consoleMessages, endpoint, keys };
    }

    it("turns on with a click (the server stores exactly that subscription, for this site), stays on after a reload, and turns off", async () => {
      const { page, endpoint, keys, consoleMessages } = await open();
      await (await settledEmbedBell(page, "off")).click();
      const on = await settledEmbedBell(page, "on");
      expect(await on.getAttribute("aria-label")).toBe(BELL_TEXT.disable);
      expect(await on.getAttribute("aria-pressed")).toBe("true");
      expect(await subscriptionRows(sino)).toEqual([{ endpoint, p256dh: keys.p256dh, auth: keys.auth, site_id: Number(siteId) }]);

      await page.reload();
      await settledEmbedBell(page, "on");
      expect(await subscriptionRows(sino)).toHaveLength(1);

      await (await settledEmbedBell(page, "on")).click();
      const off = await settledEmbedBell(page, "off");
      expect(await off.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
      expect(await subscriptionRows(sino)).toEqual([]);
      expect(countStartingWith(consoleMessages, BELL_TEXT.notInitialised)).toBe(0);
    });

    if (dialect !== "sqlite") return;

    it("is hidden on an insecure page, and the console says messaging was not initialised", async () => {
      const { page, consoleMessages } = await open({ url: site.pageUrl({ host: INSECURE_HOST }) });
      await page.locator('sino-bell[state="hidden"]').waitFor({ state: "attached" });
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
      expect(await embedBell(page).isVisible()).toBe(false);
      expect(await page.evaluate(() => window.Sino?.state)).toBe("hidden");
      expect(countStartingWith(consoleMessages, BELL_TEXT.notInitialised)).toBe(1);
    });

    it("is grey and off, named 'Habilitar Notificações', with the tooltip on hover and on keyboard focus (Escape hides it), and axe-clean", async () => {
      const { page } = await open();
      const button = await settledEmbedBell(page, "off");
      expect(await button.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
      expect(await button.getAttribute("aria-pressed")).toBe("false");
      const [r, g, b] = await embedIconColour(page);
      expect(r === g && g === b).toBe(true);
      expect(await page.getByRole("button", { name: BELL_TEXT.enable, exact: true }).count()).toBe(1);

      await button.hover();
      const tooltip = page.getByRole("tooltip", { name: BELL_TEXT.enable, exact: true });
      await tooltip.waitFor({ state: "visible" });
      await page.mouse.move(0, 0);
      await tooltip.waitFor({ state: "hidden" });

      // Keyboard: Tab from the page's link to the bell shows the tooltip; Escape hides it.
      await page.locator("header a").focus();
      await page.keyboard.press("Tab");
      expect(await button.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await tooltip.waitFor({ state: "visible" });
      await page.keyboard.press("Escape");
      await tooltip.waitFor({ state: "hidden" });

      expect(await axeViolations(page)).toEqual([]);
    });

    it("is coloured while on, with the tooltip 'Desabilitar Notificações', and the keyboard turns it on and off", async () => {
      const { page } = await open();
      // Settled before the Tab: a bell still rendering under load let the Tab pass it by, and the
      // Enter then went nowhere.
      const off = await settledEmbedBell(page, "off");
      await page.locator("header a").focus();
      await page.keyboard.press("Tab");
      expect(await off.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
      await page.keyboard.press("Enter");
      const button = await settledEmbedBell(page, "on");
      const [r, g, b] = await embedIconColour(page);
      expect(r === g && g === b).toBe(false);
      await button.hover();
      await page.getByRole("tooltip", { name: BELL_TEXT.disable, exact: true }).waitFor({ state: "visible" });
      expect(await subscriptionRows(sino)).toHaveLength(1);
      expect(await axeViolations(page)).toEqual([]);

      await button.focus();
      await page.keyboard.press("Space");
      await settledEmbedBell(page, "off");
      expect(await subscriptionRows(sino)).toEqual([]);
    });

    it("explains how to unblock in pt-BR when permission is denied, and again after a reload while it stays denied", async () => {
      const { page, consoleMessages } = await open({ grant: false });
      await (await settledEmbedBell(page, "off")).click();
      const help = page.getByRole("dialog", { name: ptBR.bell.blocked.title });
      await help.waitFor();
      expect(await help.textContent()).toContain(ptBR.bell.blocked.chrome);
      expect(countStartingWith(consoleMessages, BELL_TEXT.noToken)).toBe(1);
      expect(await page.evaluate(() => Notification.permission)).toBe("denied");
      expect(await subscriptionRows(sino)).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      // Escape closes it and focus goes back to the bell.
      await page.keyboard.press("Escape");
      await help.waitFor({ state: "hidden" });
      expect(await embedBell(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);

      await page.reload();
      const denied = await settledEmbedBell(page, "denied");
      // Still "Habilitar Notificações" (seed-spec §4), described as blocked for screen readers.
      expect(await denied.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
      const description = await denied.evaluate((el) => {
        const id = el.getAttribute("aria-describedby");
        return id === null ? null : ((el.getRootNode() as ShadowRoot).getElementById(id)?.textContent ?? null);
      });
      expect(description).toBe(ptBR.embed.blockedStatus);
      await denied.click();
      await page.getByRole("dialog", { name: ptBR.bell.blocked.title }).waitFor();
      expect(await page.getByRole("dialog", { name: ptBR.bell.blocked.title }).textContent()).toContain(ptBR.bell.blocked.chrome);
      await page.getByRole("button", { name: ptBR.bell.close }).click();
      await settledEmbedBell(page, "denied");
    });

    it("logs 'An error occurred while retrieving token' and shows nothing when the push service fails", async () => {
      const { page, consoleMessages } = await open({ mode: "throw" });
      await (await settledEmbedBell(page, "off")).click();
      await page.waitForFunction((key) => localStorage.getItem(key) === "1", STUB_STORAGE.subscribeCalls);
      await settledEmbedBell(page, "off");
      expect(countStartingWith(consoleMessages, BELL_TEXT.tokenError)).toBe(1);
      expect(await page.getByRole("dialog").count()).toBe(0);
      expect(await subscriptionRows(sino)).toEqual([]);
    });

    it("ignores a second click while the first is being handled", async () => {
      const { page } = await open();
      const button = await settledEmbedBell(page, "off");
      await button.evaluate((el: HTMLElement) => {
        el.click();
        el.click();
      });
      await settledEmbedBell(page, "on");
      expect(await page.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscribeCalls)).toBe("1");
      expect(await subscriptionRows(sino)).toHaveLength(1);
    });

    it("floats in the configured corner when the page has no <sino-bell>, and works there", async () => {
      const { page } = await open({ url: site.pageUrl({ bell: false, data: { "data-position": "bottom-left" } }) });
      const host = page.locator('sino-bell[floating][position="bottom-left"]');
      const button = await settledEmbedBell(page, "off", 'sino-bell[floating][position="bottom-left"]');
      expect(await page.locator("sino-bell").count()).toBe(1);
      const box = await host.boundingBox();
      const viewport = page.viewportSize();
      expect(box).not.toBeNull();
      expect(box!.x).toBeLessThan(50);
      expect(box!.y + box!.height).toBeGreaterThan(viewport!.height - 50);
      await button.click();
      await settledEmbedBell(page, "on", "sino-bell[floating]");
      expect(await subscriptionRows(sino)).toHaveLength(1);
      expect(await axeViolations(page)).toEqual([]);
    });

    it("lets the visitor choose channels in a dialog headed by the organisation (keyboard, Escape, focus back), stored on the server", async () => {
      const identity = await admin.put("/api/v1/organisation", { name: "Prefeitura de Exemplo", accentColor: "#7a1f5c", logo: { data: solidPng(96, 96, [122, 31, 92]).toString("base64") } });
      expect(identity.status).toBe(200);
      for (const channel of [
        { slug: "obras", name: "Obras na cidade", isDefault: true },
        { slug: "eventos", name: "Eventos", description: "Shows e feiras no fim de semana." },
      ]) {
        const res = await admin.post("/api/v1/channels", channel);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const { page, endpoint } = await open();
      await (await settledEmbedBell(page, "off")).click();
      await settledEmbedBell(page, "on");
      const opener = page.getByRole("button", { name: ptBR.embed.channels.open });
      await opener.click();
      const dialog = page.getByRole("dialog", { name: ptBR.embed.channels.title });
      await dialog.waitFor();
      const obras = dialog.getByRole("checkbox", { name: "Obras na cidade" });
      const eventos = dialog.getByRole("checkbox", { name: /Eventos/ });
      await obras.waitFor();
      expect(await obras.isChecked()).toBe(true);
      expect(await eventos.isChecked()).toBe(false);
      expect(await axeViolations(page)).toEqual([]);
      // Whose notices these are: the organisation's name and logo (loaded from Sino), its colour on the buttons.
      const heading = dialog.getByTestId("sino-organisation");
      expect(await heading.textContent()).toBe("Prefeitura de Exemplo");
      await expect.poll(() => heading.locator("img").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
      expect(await dialog.getByRole("button", { name: ptBR.embed.channels.save }).evaluate((el) => getComputedStyle(el).backgroundColor)).toBe("rgb(122, 31, 92)");

      // Escape cancels: nothing stored, focus back on the channels button.
      await eventos.check();
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await opener.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);

      await opener.click();
      await dialog.waitFor();
      await eventos.waitFor();
      await eventos.check();
      await obras.uncheck();
      await dialog.getByRole("button", { name: ptBR.embed.channels.save }).click();
      await dialog.waitFor({ state: "hidden" });
      const stored = await sino.database.db
        .selectFrom("subscription_channels")
        .innerJoin("subscriptions", "subscriptions.id", "subscription_channels.subscription_id")
        .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
        .select("channels.slug")
        .where("subscriptions.endpoint", "=", endpoint)
        .execute();
      expect(stored.map((row) => row.slug)).toEqual(["eventos"]);
    });

    it("offers the soft prompt from the configured visit; 'Agora não' backs off and the browser is never asked", async () => {
      const data = { "data-soft-prompt": "", "data-prompt-visits": "2", "data-prompt-backoff-days": "7" };
      const { page, context } = await open({ grant: false, url: site.pageUrl({ data }) });
      await settledEmbedBell(page, "off");
      // First visit (this tab's session): no prompt yet.
      await page.waitForFunction(() => localStorage.getItem("sino:soft-prompt") !== null);
      expect(JSON.parse((await page.evaluate(() => localStorage.getItem("sino:soft-prompt"))) ?? "{}")).toEqual({ visits: 1, dismissedAt: null });
      expect(await page.getByRole("dialog", { name: ptBR.embed.prompt.title }).count()).toBe(0);

      // A second visit (a new tab is a new session).
      const second = await context.newPage();
      await second.goto(site.pageUrl({ data }));
      const prompt = second.getByRole("dialog", { name: ptBR.embed.prompt.title });
      await prompt.waitFor();
      expect(await prompt.textContent()).toContain(ptBR.embed.prompt.text);
      expect(await axeViolations(second)).toEqual([]);
      // Focus is on its first action; "Agora não" closes it and remembers when.
      await prompt.getByRole("button", { name: ptBR.embed.prompt.later }).click();
      await prompt.waitFor({ state: "hidden" });
      const memory = JSON.parse((await second.evaluate(() => localStorage.getItem("sino:soft-prompt"))) ?? "{}") as { visits: number; dismissedAt: number };
      expect(memory.visits).toBe(2);
      expect(typeof memory.dismissedAt).toBe("number");
      expect(await second.evaluate(() => Notification.permission)).toBe("default");
      expect(await second.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscribeCalls)).toBeNull();

      // A third visit within the back-off: no prompt, the bell is there and off.
      const third = await context.newPage();
      await third.goto(site.pageUrl({ data }));
      await settledEmbedBell(third, "off");
      await third.waitForFunction(() => (JSON.parse(localStorage.getItem("sino:soft-prompt") ?? "{}") as { visits?: number }).visits === 3);
      expect(await third.getByRole("dialog", { name: ptBR.embed.prompt.title }).count()).toBe(0);

      // Once the back-off is over, it is offered again (the dismissal is moved 8 days back).
      await third.evaluate(() => {
        const saved = JSON.parse(localStorage.getItem("sino:soft-prompt") ?? "{}") as { dismissedAt: number };
        localStorage.setItem("sino:soft-prompt", JSON.stringify({ ...saved, dismissedAt: saved.dismissedAt - 8 * 24 * 3600 * 1000 }));
      });
      await third.reload();
      await third.getByRole("dialog", { name: ptBR.embed.prompt.title }).waitFor();
    });

    it("asks the browser only after 'Ativar notificações' in the soft prompt, and turns on", async () => {
      const { page, context, endpoint } = await open({ grant: false, url: "about:blank" });
      await context.addInitScript(answerPermissionWhenAsked);
      await page.goto(site.pageUrl({ data: { "data-soft-prompt": "", "data-prompt-visits": "1", "data-prompt-delay": "0" } }));
      const prompt = page.getByRole("dialog", { name: ptBR.embed.prompt.title });
      await prompt.waitFor();
      expect(await page.evaluate(() => (window as unknown as { asked?: number }).asked ?? 0)).toBe(0);
      await prompt.getByRole("button", { name: ptBR.embed.prompt.accept }).click();
      await settledEmbedBell(page, "on");
      expect(await page.evaluate(() => (window as unknown as { asked?: number }).asked)).toBe(1);
      expect((await subscriptionRows(sino)).map((row) => row.endpoint)).toEqual([endpoint]);
    });

    it("offers window.Sino for custom UIs: state, subscribe(), unsubscribe(), on('change') and sino:change events", async () => {
      const { page, endpoint } = await open({ url: site.pageUrl({ bell: false, data: { "data-position": "none" } }) });
      await page.waitForFunction(() => window.Sino !== undefined);
      expect(await page.locator("sino-bell").count()).toBe(0);
      expect(await page.evaluate(async () => (await window.Sino!.ready).status)).toBe("off");
      await page.evaluate(() => {
        const w = window as unknown as { viaOn: string[]; viaEvent: string[] };
        w.viaOn = [];
        w.viaEvent = [];
        window.Sino!.on("change", (snapshot) => w.viaOn.push(`${snapshot.status}${snapshot.busy ? "…" : ""}`));
        document.addEventListener("sino:change", (event) => w.viaEvent.push((event as CustomEvent<{ status: string }>).detail.status));
      });
      expect(await page.evaluate(async () => (await window.Sino!.subscribe()).status)).toBe("on");
      expect(await page.evaluate(() => window.Sino!.state)).toBe("on");
      expect((await subscriptionRows(sino)).map((row) => row.endpoint)).toEqual([endpoint]);
      expect(await page.evaluate(async () => (await window.Sino!.unsubscribe()).status)).toBe("off");
      expect(await subscriptionRows(sino)).toEqual([]);
      const seen = await page.evaluate(() => {
        const { viaOn, viaEvent } = window as unknown as { viaOn: string[]; viaEvent: string[] };
        return { viaOn, viaEvent };
      });
      expect(seen.viaOn).toEqual(["off…", "on", "on…", "off"]);
      expect(seen.viaEvent).toEqual(["off", "on", "on", "off"]);
    });

    it("sets visitor tags with Sino.tag and Sino.untag from the site's page (never the person's), refuses them once the site turns them off, and stores the browser's time zone", async () => {
      const { page, endpoint } = await open({ url: site.pageUrl({ bell: false, data: { "data-position": "none" } }) });
      await page.waitForFunction(() => window.Sino !== undefined);
      const notSubscribed = await page.evaluate(() => window.Sino!.tag("bairro", "Centro").then(() => "", (error: { code: string }) => error.code));
      expect(notSubscribed).toBe("not_subscribed");
      expect(await page.evaluate(async () => (await window.Sino!.subscribe()).status)).toBe("on");
      expect(await page.evaluate(() => window.Sino!.tag("bairro", "Centro"))).toEqual({ bairro: "Centro" });
      expect(await page.evaluate(() => window.Sino!.tag("vip"))).toEqual({ bairro: "Centro", vip: true });
      expect(await page.evaluate(() => window.Sino!.untag("bairro"))).toEqual({ vip: true });
      const row = await sino.database.db.selectFrom("subscriptions").select(["id", "time_zone", "browser"]).where("endpoint", "=", endpoint).executeTakeFirstOrThrow();
      expect(row.time_zone).toBe(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone));
      expect(row.browser).toBe("chrome");
      expect(await sino.database.db.selectFrom("person_tags").selectAll().execute()).toEqual([]);

      expect((await admin.patch(`/api/v1/sites/${siteId}`, { visitorTags: false })).status).toBe(200);
      expect(await page.evaluate(() => window.Sino!.tag("tema", "escuro").then(() => "", (error: { code: string }) => error.code))).toBe("visitor_tags_disabled");
      const stored = await sino.database.db.selectFrom("subscription_tags").select("key").where("subscription_id", "=", Number(row.id)).execute();
      expect(stored.map((r) => r.key)).toEqual(["vip"]);
    });
  });
}

describe("the embedded bell on a site Sino does not know", () => {
  let sino: TestServer;
  let site: EmbedSite;
  beforeEach(async () => {
    sino = await startSinoForEmbed({ dialect: "sqlite" });
    await adminOf(sino);
    site = await startEmbedSite({ sinoUrl: sino.baseUrl, siteKey: null });
  });
  afterEach(async () => {
    await site.close();
    await sino.close();
  });

  it("stays off with a pt-BR notice, stores nothing, and tells the site's developer in the console to register the origin", async () => {
    const context = await browser().newContext();
    try {
      await context.grantPermissions(["notifications"], { origin: site.origin });
      await installPushStub(context, { endpoint: testEndpoint(), keys: makeSubscriptionKeys() });
      const page = await context.newPage();
      const consoleMessages = recordConsole(page);
      await page.goto(site.pageUrl());
      await (await settledEmbedBell(page, "off")).click();
      const notice = page.getByRole("dialog", { name: BELL_TEXT.enable });
      await notice.waitFor();
      expect(await notice.textContent()).toContain(ptBR.bell.failed.enable);
      await settledEmbedBell(page, "off");
      // In pt-BR, with the origin to register and where (Painel → Sites), not a bare CORS error.
      const explained = consoleMessages.filter((message) => message.includes(`a origem ${site.origin} não está cadastrada`));
      expect(explained).toHaveLength(1);
      expect(explained[0]).toContain("Painel → Sites");
      expect(explained[0]).toContain(sino.baseUrl);
      expect(consoleMessages.filter((message) => /CORS/i.test(message))).toEqual([]);
      expect(await sino.database.db.selectFrom("subscriptions").select("endpoint").execute()).toEqual([]);
      // The page may read the configuration's refusal, and nothing else: a write still gets no CORS grant.
      const read = await page.evaluate(async (url) => {
        const outcome = async (call: () => Promise<Response>) => {
          try {
            const response = await call();
            return `${response.status}`;
          } catch {
            return "blocked";
          }
        };
        return {
          config: await outcome(() => fetch(`${url}/api/v1/config`)),
          notices: await outcome(() => fetch(`${url}/api/v1/notices`)),
          subscribe: await outcome(() => fetch(`${url}/api/v1/subscriptions`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })),
        };
      }, sino.baseUrl);
      expect(read).toEqual({ config: "403", notices: "blocked", subscribe: "blocked" });
    } finally {
      await context.close();
    }
  });
});
