/**
 * The React package (issue 9, "React apps") in a small Vite host app, in a real Chromium against
 * the real Sino server: the test builds the package and the test app (packages/react/test-app),
 * serves the app from its own origin, and drives `<SinoBell />`, `useSino()` and the host's Redux
 * store. The push service inside the page is stubbed (TESTING.md §2); the service worker, the HTTP
 * API and the database are real.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { axeViolations } from "./support/axe.js";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { SiteResponse } from "../../src/shared/api/sites.js";
import { PROMPT_STORAGE_KEY } from "../../src/client/index.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { adminCall, adminContext, createChannel } from "./support/audience.js";
import { startTestServer } from "../support/server.js";
import type { TestServer } from "../support/server.js";
import { bell, bellIconColour, isGrey, settledBell } from "./support/bell-page.js";
import { countStartingWith, recordConsole } from "./support/console-log.js";
import { installPushStub, makeSubscriptionKeys, STUB_STORAGE, testEndpoint } from "./support/push-stub.js";
import type { SubscriptionKeys } from "./support/push-stub.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { answerPermissionWhenAsked, BELL_TEXT } from "./support/bell-chromium.js";
import { buildReactTestApp, reactTestAppPage, serveReactTestApp } from "./support/react-test-app.js";
import type { StaticSite } from "./support/react-test-app.js";

/** A name Chromium resolves to 127.0.0.1 but does not treat as a secure context. */
const INSECURE_HOST = "loja.test";

let browser: Browser;
let testAppDir: string;
beforeAll(async () => {
  requireBuiltWebApp();
  testAppDir = await buildReactTestApp();
  browser = await launchChromium({ args: [`--host-resolver-rules=MAP ${INSECURE_HOST} 127.0.0.1`] });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

/** Sino on one origin, the host app on another, the site registered for the app's origin. */
interface Setup {
  server: TestServer;
  site: StaticSite;
  /** The registered site: its key goes in the provider's `site`, its id on each subscription. */
  siteKey: string;
  siteId: string;
  /** The signed-in admin who registered the site (for channels and the like). */
  admin: BrowserContext;
  close(): Promise<void>;
}

async function setUp(dialect: "sqlite" | "postgres"): Promise<Setup> {
  const server = await startTestServer({ dialect });
  let siteKey = "";
  const site = await serveReactTestApp(testAppDir, { url: server.baseUrl, siteKey: () => siteKey });
  let admin: BrowserContext | undefined;
  const close = async () => {
    await admin?.close();
    await site.close();
    await server.close();
  };
  try {
    // Painel → Sites: an admin registers the app's origin.
    admin = await adminContext(browser, server);
    const { site: registered } = await adminCall<SiteResponse>(admin.request, server, "POST", API_ROUTES.sites, { origin: site.url });
    siteKey = registered.key;
    return { server, site, admin, siteKey, siteId: registered.id, close };
  } catch (error) {
    await close();
    throw error;
  }
}

interface Opened {
  context: BrowserContext;
  page: Page;
  consoleMessages: string[];
  keys: SubscriptionKeys;
  endpoint: string;
}

interface PageOptions {
  origin?: string;
  siteKey?: string;
  /** More settings of the test app, in its query string (e.g. the soft prompt's). */
  query?: Record<string, string>;
}

function appUrl(setup: Setup, options: PageOptions = {}): string {
  return reactTestAppPage(options.origin ?? setup.site.url, setup.server.baseUrl, options.siteKey ?? setup.siteKey, options.query);
}

interface OpenOptions extends Omit<PageOptions, "origin"> {
  grant?: boolean;
  mode?: "ok" | "throw";
  /** Runs in every page of the context before the app's own scripts. */
  initScript?: () => void;
}

async function open(setup: Setup, options: OpenOptions = {}): Promise<Opened> {
  const context = await browser.newContext();
  if (options.grant ?? true) await context.grantPermissions(["notifications"], { origin: setup.site.url });
  const keys = makeSubscriptionKeys();
  const endpoint = testEndpoint();
  await installPushStub(context, { endpoint, keys, mode: options.mode ?? "ok" });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const consoleMessages = recordConsole(page);
  await page.goto(appUrl(setup, options));
  return { context, page, consoleMessages, keys, endpoint };
}

/** The soft prompt's memory on the app's origin (see src/client/prompt/prompt-policy.ts). */
async function promptMemory(page: Page): Promise<{ visits?: number; dismissedAt?: number | null }> {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "{}") as { visits?: number; dismissedAt?: number | null }, PROMPT_STORAGE_KEY);
}

/** The text the bell is described by (its `aria-describedby`), or null. */
async function bellDescription(page: Page): Promise<string | null> {
  return bell(page).evaluate((el) => {
    const id = el.getAttribute("aria-describedby");
    return id === null ? null : (document.getElementById(id)?.textContent ?? null);
  });
}

async function subscriptionRows(server: TestServer) {
  return server.database.db.selectFrom("subscriptions").select(["endpoint", "p256dh", "auth"]).execute();
}

/** The site each stored subscription was collected on (ids as strings, as the API gives them). */
async function subscriptionSites(server: TestServer): Promise<string[]> {
  const rows = await server.database.db.selectFrom("subscriptions").select("site_id").execute();
  return rows.map((row) => String(row.site_id));
}

async function storedChannels(server: TestServer, endpoint: string): Promise<string[]> {
  const rows = await server.database.db
    .selectFrom("subscription_channels")
    .innerJoin("subscriptions", "subscriptions.id", "subscription_channels.subscription_id")
    .innerJoin("channels", "channels.id", "subscription_channels.channel_id")
    .where("subscriptions.endpoint", "=", endpoint)
    .select("channels.slug")
    .execute();
  return rows.map((row) => row.slug).sort();
}

/** The `setToken` actions the host's store received, in order (the test app records every action). */
async function setTokenActions(page: Page): Promise<{ type: string; payload: unknown }[]> {
  return page.evaluate(() =>
    ((window as Window & { sinoTestActions?: { type: string; payload: unknown }[] }).sinoTestActions ?? []).filter((a) =>
      a.type.endsWith("/setToken"),
    ),
  );
}

/** On with a click (token in the host's store through setToken, row on the server), reload, off through useSino(). */
async function roundTrip(setup: Setup): Promise<void> {
  const { page, keys, endpoint, context } = await open(setup);
  try {
    await (await settledBell(page, "off")).click();
    const on = await settledBell(page, "on");
    expect(await on.getAttribute("aria-label")).toBe(BELL_TEXT.disable);
    expect(await subscriptionRows(setup.server)).toEqual([{ endpoint, p256dh: keys.p256dh, auth: keys.auth }]);
    // Collected on the registered site, from its own origin (CORS granted to it).
    expect(await subscriptionSites(setup.server)).toEqual([setup.siteId]);

    // The token reached the host's own store, through an action named setToken.
    const token = { endpoint, expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
    expect(await setTokenActions(page)).toEqual([
      { type: "sino/setToken", payload: null },
      { type: "sino/setToken", payload: token },
    ]);
    expect(await page.getByTestId("store-token").textContent()).toBe(endpoint);
    expect(await page.getByTestId("hook-state").textContent()).toBe("on");

    // After a reload the client picks the subscription up again and hands it to the new store.
    await page.reload();
    await settledBell(page, "on");
    expect(await setTokenActions(page)).toEqual([{ type: "sino/setToken", payload: token }]);
    expect(await subscriptionRows(setup.server)).toHaveLength(1);

    // Off through the hook (a custom control), not the bell: the server's row goes.
    await page.getByRole("button", { name: "Desativar pelo useSino()" }).click();
    await settledBell(page, "off");
    expect(await subscriptionRows(setup.server)).toEqual([]);
    expect(await setTokenActions(page)).toEqual([
      { type: "sino/setToken", payload: token },
      { type: "sino/setToken", payload: null },
    ]);
    expect(await page.getByTestId("store-token").textContent()).toBe("nenhum");
    expect(await page.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscription)).toBeNull();
  } finally {
    await context.close();
  }
}

describe("@sino/react in a host app (SQLite)", () => {
  let setup: Setup;
  let contexts: BrowserContext[] = [];
  beforeEach(async () => {
    setup = await setUp("sqlite");
  });
  afterEach(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    contexts = [];
    await setup.close();
  });
  const openPage = async (options?: Parameters<typeof open>[1]) => {
    const opened = await open(setup, options);
    contexts.push(opened.context);
    return opened;
  };

  it("hides the bell on an insecure page, logs the seed's message, and hands setToken(null) to the store", async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const messages = recordConsole(page);
    const port = new URL(setup.site.url).port;
    await page.goto(appUrl(setup, { origin: `http://${INSECURE_HOST}:${port}` }));

    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    await page.waitForSelector('[data-testid="hook-state"]:text-is("hidden")');
    expect(await bell(page).count()).toBe(0);
    expect(countStartingWith(messages, BELL_TEXT.notInitialised)).toBe(1);
    expect(await setTokenActions(page)).toEqual([{ type: "sino/setToken", payload: null }]);
  });

  it("is grey and off with the tooltip 'Habilitar Notificações', on hover and on keyboard focus; Escape hides it", async () => {
    const { page } = await openPage();
    const button = await settledBell(page, "off");
    expect(await button.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(isGrey(await bellIconColour(page))).toBe(true);
    expect(await page.getByRole("button", { name: BELL_TEXT.enable, exact: true }).count()).toBe(1);

    await button.hover();
    const tooltip = page.getByRole("tooltip", { name: BELL_TEXT.enable, exact: true });
    await tooltip.waitFor({ state: "visible" });
    await page.mouse.move(0, 0);
    await tooltip.waitFor({ state: "detached" });

    await button.focus();
    await tooltip.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await tooltip.waitFor({ state: "detached" });
  });

  it("turns on with a click, hands the token to the host's store through setToken, and off through useSino() (server row follows)", async () => {
    await roundTrip(setup);
  });

  it("is coloured while on, with the tooltip 'Desabilitar Notificações'", async () => {
    const { page } = await openPage();
    await (await settledBell(page, "off")).click();
    const button = await settledBell(page, "on");
    expect(isGrey(await bellIconColour(page))).toBe(false);
    await button.hover();
    await page.getByRole("tooltip", { name: BELL_TEXT.disable, exact: true }).waitFor({ state: "visible" });
  });

  it("works from the keyboard: Tab to the bell, Enter turns it on, Space turns it off", async () => {
    const { page } = await openPage();
    await settledBell(page, "off");
    await page.keyboard.press("Tab");
    expect(await bell(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press("Enter");
    await settledBell(page, "on");
    expect(await subscriptionRows(setup.server)).toHaveLength(1);
    // Busy never took the focus away from the bell.
    expect(await bell(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press("Space");
    await settledBell(page, "off");
    expect(await subscriptionRows(setup.server)).toEqual([]);
  });

  it("stays off when permission is denied, logs that no token is available, and explains how to unblock in pt-BR", async () => {
    const { page, consoleMessages } = await openPage({ grant: false });
    expect(await bellDescription(page)).toBeNull();
    await (await settledBell(page, "off")).click();
    const notice = page.getByRole("alert");
    await notice.waitFor();
    expect(await notice.textContent()).toContain(ptBR.bell.blocked.title);
    expect(await notice.textContent()).toContain(ptBR.bell.blocked.chrome);
    expect(await axeViolations(page)).toEqual([]);
    await settledBell(page, "off");
    expect(countStartingWith(consoleMessages, BELL_TEXT.noToken)).toBe(1);
    expect(await subscriptionRows(setup.server)).toEqual([]);
    expect(await page.getByTestId("store-token").textContent()).toBe("nenhum");

    await notice.getByRole("button", { name: ptBR.bell.close }).click();
    await notice.waitFor({ state: "detached" });

    // After a reload, while the permission stays denied, a click explains it again.
    await page.reload();
    await page.waitForSelector('[data-testid="hook-state"]:text-is("denied")');
    // Blocked is said with the bell itself, before any click (as <sino-bell> does).
    expect(await bellDescription(page)).toBe(ptBR.embed.blockedStatus);
    expect(await axeViolations(page)).toEqual([]);
    await (await settledBell(page, "off")).click();
    await notice.waitFor();
    expect(await notice.textContent()).toContain(ptBR.bell.blocked.title);
    expect(countStartingWith(consoleMessages, BELL_TEXT.noToken)).toBe(2);
  });

  it("logs 'An error occurred while retrieving token' and shows nothing when the push service fails", async () => {
    const { page, consoleMessages } = await openPage({ mode: "throw" });
    await (await settledBell(page, "off")).click();
    await page.waitForFunction((key) => localStorage.getItem(key) === "1", STUB_STORAGE.subscribeCalls);
    await settledBell(page, "off");
    expect(countStartingWith(consoleMessages, BELL_TEXT.tokenError)).toBe(1);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await subscriptionRows(setup.server)).toEqual([]);
    expect(await setTokenActions(page)).toEqual([{ type: "sino/setToken", payload: null }]);
  });

  it("chooses channels through useSino(): the server stores the choice against the subscription", async () => {
    await createChannel(setup.admin.request, setup.server, "obras", "Obras");
    await createChannel(setup.admin.request, setup.server, "saude", "Saúde");
    const { page, endpoint } = await openPage();
    await (await settledBell(page, "off")).click();
    await settledBell(page, "on");

    await page.getByRole("checkbox", { name: "Obras" }).check();
    await page.getByRole("status").getByText("Canais salvos.").waitFor();
    expect(await page.getByTestId("hook-channels").textContent()).toBe("obras");
    expect(await storedChannels(setup.server, endpoint)).toEqual(["obras"]);
  });

  it("says in pt-BR that enabling failed, and stores nothing, when the app names a site key Sino does not know", async () => {
    const { page } = await openPage({ siteKey: "nao-existe" });
    await (await settledBell(page, "off")).click();
    const notice = page.getByRole("alert");
    await notice.waitFor();
    expect(await notice.textContent()).toContain(ptBR.bell.failed.enable);
    await settledBell(page, "off");
    expect(await subscriptionRows(setup.server)).toEqual([]);
    expect(await page.getByTestId("store-token").textContent()).toBe("nenhum");
  });

  it("chooses channels in the bell's own picker: Escape cancels, 'Salvar' stores the choice on the server", async () => {
    await createChannel(setup.admin.request, setup.server, "obras", "Obras na cidade", "Interdições e obras nas ruas");
    await createChannel(setup.admin.request, setup.server, "eventos", "Eventos");
    const { page, endpoint } = await openPage();
    const opener = page.getByRole("button", { name: ptBR.embed.channels.open });
    await settledBell(page, "off");
    // Only while on.
    expect(await opener.count()).toBe(0);
    await (await settledBell(page, "off")).click();
    await settledBell(page, "on");

    await opener.click();
    const dialog = page.getByRole("dialog", { name: ptBR.embed.channels.title });
    await dialog.waitFor();
    const obras = dialog.getByRole("checkbox", { name: /Obras na cidade/ });
    const eventos = dialog.getByRole("checkbox", { name: "Eventos" });
    await obras.waitFor();
    expect(await obras.isChecked()).toBe(false);
    // The first channel has the focus once they are loaded.
    await page.waitForFunction(() => {
      const first = document.querySelector("dialog[open] input[type=checkbox]");
      return first !== null && first === document.activeElement;
    });
    expect(await dialog.textContent()).toContain("Interdições e obras nas ruas");
    expect(await axeViolations(page)).toEqual([]);

    // Escape cancels: nothing stored, focus back on the channels button.
    await eventos.check();
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    expect(await opener.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await storedChannels(setup.server, endpoint)).toEqual([]);

    await opener.click();
    await eventos.waitFor();
    expect(await eventos.isChecked()).toBe(false);
    await eventos.check();
    await dialog.getByRole("button", { name: ptBR.embed.channels.save }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await storedChannels(setup.server, endpoint)).toEqual(["eventos"]);
    expect(await page.getByTestId("hook-channels").textContent()).toBe("eventos");

    // Reopened, it shows what the server holds.
    await opener.click();
    await eventos.waitFor();
    expect(await eventos.isChecked()).toBe(true);
    expect(await obras.isChecked()).toBe(false);
  });

  it("offers the soft prompt from the configured visit; 'Agora não' backs off and the browser is never asked", async () => {
    const query = { prompt: "1", promptVisits: "2", promptBackoffDays: "7" };
    const { page, context } = await openPage({ grant: false, query });
    await settledBell(page, "off");
    const promptIn = (p: Page) => p.getByRole("dialog", { name: ptBR.embed.prompt.title });
    // First visit (this tab's session): counted, no prompt yet.
    await page.waitForFunction((key) => localStorage.getItem(key) !== null, PROMPT_STORAGE_KEY);
    expect(await promptMemory(page)).toEqual({ visits: 1, dismissedAt: null });
    expect(await promptIn(page).count()).toBe(0);

    // A second visit (a new tab is a new session).
    const second = await context.newPage();
    await second.goto(appUrl(setup, { query }));
    const prompt = promptIn(second);
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain(ptBR.embed.prompt.text);
    const later = prompt.getByRole("button", { name: ptBR.embed.prompt.later });
    const accept = prompt.getByRole("button", { name: ptBR.embed.prompt.accept });
    expect(await accept.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(second)).toEqual([]);

    await later.click();
    await prompt.waitFor({ state: "detached" });
    const memory = await promptMemory(second);
    expect(memory.visits).toBe(2);
    expect(typeof memory.dismissedAt).toBe("number");
    expect(await second.evaluate(() => Notification.permission)).toBe("default");
    expect(await second.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscribeCalls)).toBeNull();
    await settledBell(second, "off");

    // A third visit within the back-off: counted, no prompt.
    const third = await context.newPage();
    await third.goto(appUrl(setup, { query }));
    await settledBell(third, "off");
    await third.waitForFunction((key) => (JSON.parse(localStorage.getItem(key) ?? "{}") as { visits?: number }).visits === 3, PROMPT_STORAGE_KEY);
    // Longer than the prompt's zero delay: had it been allowed, it would be showing.
    await third.waitForTimeout(300);
    expect(await promptIn(third).count()).toBe(0);

    // Once the back-off is over it is offered again (the dismissal is moved 8 days back).
    await third.evaluate((key) => {
      const saved = JSON.parse(localStorage.getItem(key) ?? "{}") as { dismissedAt: number };
      localStorage.setItem(key, JSON.stringify({ ...saved, dismissedAt: saved.dismissedAt - 8 * 24 * 3600 * 1000 }));
    }, PROMPT_STORAGE_KEY);
    await third.reload();
    await promptIn(third).waitFor();
  });

  it("asks the browser only after 'Ativar notificações' in the soft prompt, and turns on", async () => {
    const { page, endpoint } = await openPage({
      grant: false,
      query: { prompt: "1", promptVisits: "1", promptDelay: "0" },
      initScript: answerPermissionWhenAsked,
    });
    const prompt = page.getByRole("dialog", { name: ptBR.embed.prompt.title });
    await prompt.waitFor();
    expect(await page.evaluate(() => (window as unknown as { asked?: number }).asked ?? 0)).toBe(0);
    await prompt.getByRole("button", { name: ptBR.embed.prompt.accept }).click();
    await settledBell(page, "on");
    expect(await prompt.count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { asked?: number }).asked)).toBe(1);
    expect((await subscriptionRows(setup.server)).map((row) => row.endpoint)).toEqual([endpoint]);
  });

  it("hands a notification click from the service worker to useSino().onClick and the provider's onNotificationClick", async () => {
    const { page } = await openPage();
    await settledBell(page, "off");
    const click = { notificationId: "12", action: "2", url: `${setup.site.url}/agenda`, data: { rota: "/agenda", dia: 3 } };
    // What Sino's worker posts to the window it focused or opened (src/client/sw/click-handoff.ts).
    await page.evaluate((detail) => {
      navigator.serviceWorker.dispatchEvent(new MessageEvent("message", { data: { type: "sino:click", ...detail } }));
      navigator.serviceWorker.dispatchEvent(new MessageEvent("message", { data: { type: "sino:shown", tag: "x", title: "não é clique" } }));
    }, click);
    await page.waitForSelector('[data-testid="last-click"]:not(:text-is("nenhum"))');
    expect(JSON.parse((await page.getByTestId("last-click").textContent()) ?? "")).toEqual(click);
    expect(await page.evaluate(() => (window as Window & { sinoTestProviderClicks?: unknown[] }).sinoTestProviderClicks)).toEqual([click]);
  });

  it("has no axe violations, off (tooltip open) and on", async () => {
    const { page } = await openPage();
    const off = await settledBell(page, "off");
    await off.hover();
    await page.getByRole("tooltip").waitFor({ state: "visible" });
    expect(await axeViolations(page)).toEqual([]);

    await off.click();
    await settledBell(page, "on");
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("@sino/react in a host app (PostgreSQL)", () => {
  it("turns on with a click, hands the token to the host's store through setToken, and off through useSino() (server row follows)", async () => {
    const setup = await setUp("postgres");
    try {
      await roundTrip(setup);
    } finally {
      await setup.close();
    }
  });
});
