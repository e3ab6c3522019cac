/**
 * The bell in a real Chromium against the real server. The push service inside the page is
 * stubbed, because Chromium's real subscribe() never settles offline; everything else is real: the built app, the
 * service worker, the HTTP API and the database.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { startTestServer } from "../support/server.js";
import { BELL_TEXT, useChromiumWithInsecureHost } from "./support/bell-chromium.js";
import { bell, bellIconColour, isGrey, settledBell, settledStatus } from "./support/bell-page.js";
import { axeViolations } from "./support/axe.js";
import { countStartingWith, recordConsole } from "./support/console-log.js";
import { installPushStub, makeSubscriptionKeys, STUB_STORAGE, testEndpoint } from "./support/push-stub.js";
import type { SubscriptionKeys } from "./support/push-stub.js";

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** A name Chromium resolves to 127.0.0.1 but does not treat as potentially trustworthy (not a secure context). */
const INSECURE_HOST = "sino.test";

const browser = useChromiumWithInsecureHost(INSECURE_HOST);

async function subscriptionRows(server: TestServer) {
  return server.database.db.selectFrom("subscriptions").select(["endpoint", "p256dh", "auth"]).execute();
}

interface Fixture {
  server: TestServer;
  context: BrowserContext;
  page: Page;
  consoleMessages: string[];
  keys: SubscriptionKeys;
  endpoint: string;
}

async function open(
  server: TestServer,
  options: { grant?: boolean; mode?: "ok" | "throw" | "hang"; endpoint?: string } = {},
): Promise<Fixture> {
  const context = await browser().newContext();
  if (options.grant ?? true) await context.grantPermissions(["notifications"], { origin: server.baseUrl });
  const keys = makeSubscriptionKeys();
  const endpoint = options.endpoint ?? testEndpoint();
  await installPushStub(context, { endpoint, keys, mode: options.mode ?? "ok" });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const consoleMessages = recordConsole(page);
  await page.goto(server.baseUrl);
  return { server, context, page, consoleMessages, keys, endpoint };
}

/** Turn on with a click; check the row; reload; turn off; check the row is gone. */
async function onOffRoundTrip(server: TestServer): Promise<void> {
  const { page, keys, endpoint, context } = await open(server);
  try {
    await (await settledBell(page, "off")).click();
    const on = await settledBell(page, "on");
    expect(await on.getAttribute("aria-label")).toBe(BELL_TEXT.disable);

    // Exactly one row, and it is exactly the subscription the page produced.
    expect(await subscriptionRows(server)).toEqual([{ endpoint, p256dh: keys.p256dh, auth: keys.auth }]);
    // Made with the server's VAPID public key.
    const config = (await (await fetch(server.baseUrl + API_ROUTES.config)).json()) as { vapidPublicKey: string };
    const used = await page.evaluate((key) => (JSON.parse(localStorage.getItem(key) ?? "{}") as { key?: string }).key, STUB_STORAGE.subscription);
    expect(used).toBe(config.vapidPublicKey);

    await page.reload();
    await settledBell(page, "on");
    expect(await subscriptionRows(server)).toHaveLength(1);

    await (await settledBell(page, "on")).click();
    const off = await settledBell(page, "off");
    expect(await off.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
    expect(await subscriptionRows(server)).toEqual([]);
    expect(await page.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscription)).toBeNull();
  } finally {
    await context.close();
  }
}

describe("the bell (SQLite)", () => {
  let server: TestServer;
  let contexts: BrowserContext[] = [];
  beforeEach(async () => {
    server = await startTestServer({ dialect: "sqlite" });
  });
  afterEach(async () => {
    await Promise.all(contexts.map((context) => context.close()));
    contexts = [];
    await server.close();
  });
  const openPage = async (options?: Parameters<typeof open>[1]) => {
    const fixture = await open(server, options);
    contexts.push(fixture.context);
    return fixture;
  };

  it("is hidden on an insecure origin, and the console says messaging was not initialised", async () => {
    const context = await browser().newContext();
    contexts.push(context);
    const page = await context.newPage();
    const messages = recordConsole(page);
    const port = new URL(server.baseUrl).port;
    await page.goto(`http://${INSECURE_HOST}:${port}/`);

    expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    expect(await settledStatus(page, ptBR.app.home.status.checking)).toBe(ptBR.app.home.status.insecure);
    expect(await bell(page).count()).toBe(0);
    expect(countStartingWith(messages, BELL_TEXT.notInitialised)).toBe(1);
  });

  it("is grey and off with the tooltip 'Habilitar Notificações' when messaging is available", async () => {
    const { page, consoleMessages } = await openPage();
    const button = await settledBell(page, "off");

    expect(await button.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
    expect(await button.getAttribute("aria-pressed")).toBe("false");
    expect(isGrey(await bellIconColour(page))).toBe(true);
    await button.hover();
    // By name: another control's tooltip may still be fading out when this one opens.
    const tooltip = page.getByRole("tooltip", { name: BELL_TEXT.enable, exact: true });
    await tooltip.waitFor({ state: "visible" });
    expect(await tooltip.textContent()).toBe(BELL_TEXT.enable);
    expect(await page.getByRole("button", { name: BELL_TEXT.enable, exact: true }).count()).toBe(1);
    expect(countStartingWith(consoleMessages, BELL_TEXT.notInitialised)).toBe(0);
  });

  it("turns on with a click, stays on after a reload, and turns off with a second click (server row follows)", async () => {
    await onOffRoundTrip(server);
  });

  it("is coloured while on, with the tooltip 'Desabilitar Notificações'", async () => {
    const { page } = await openPage();
    await (await settledBell(page, "off")).click();
    const button = await settledBell(page, "on");
    expect(isGrey(await bellIconColour(page))).toBe(false);
    await button.hover();
    // By name: another control's tooltip may still be fading out when this one opens.
    const tooltip = page.getByRole("tooltip", { name: BELL_TEXT.disable, exact: true });
    await tooltip.waitFor({ state: "visible" });
    expect(await tooltip.textContent()).toBe(BELL_TEXT.disable);
    expect(await page.getByTestId("push-status").textContent()).toBe(ptBR.app.home.status.on);
  });

  it("stays off when permission is denied, explains how to unblock in pt-BR, and logs that no token is available", async () => {
    const { page, consoleMessages } = await openPage({ grant: false });
    await (await settledBell(page, "off")).click();
    const notice = page.getByTestId("push-notice");
    await notice.waitFor();

    expect(await notice.textContent()).toContain(ptBR.bell.blocked.title);
    expect(await notice.textContent()).toContain(ptBR.bell.blocked.chrome);
    await settledBell(page, "off");
    expect(countStartingWith(consoleMessages, BELL_TEXT.noToken)).toBe(1);
    expect(await page.evaluate(() => Notification.permission)).toBe("denied");
    expect(await subscriptionRows(server)).toEqual([]);

    await notice.getByRole("button", { name: ptBR.bell.close }).click();
    await notice.waitFor({ state: "detached" });
  });

  it("shows the blocked state and how to unblock after a reload while permission stays denied, as the embed does", async () => {
    const { page, consoleMessages } = await openPage({ grant: false });
    await (await settledBell(page, "off")).click();
    await page.getByTestId("push-notice").waitFor();
    expect(await page.evaluate(() => Notification.permission)).toBe("denied");

    await page.reload();
    await page.waitForSelector('header button[data-state="denied"]');
    const denied = await settledBell(page, "off");
    // Still "Habilitar Notificações" (seed-spec §4), described as blocked as <sino-bell> is, before any click.
    expect(await denied.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
    expect(await denied.getAttribute("aria-pressed")).toBe("false");
    const description = await denied.evaluate((el) => {
      const id = el.getAttribute("aria-describedby");
      return id === null ? null : (document.getElementById(id)?.textContent ?? null);
    });
    expect(description).toBe(ptBR.embed.blockedStatus);
    // The page's status line says it is blocked, with this browser's steps to unblock; no "desativadas".
    expect(await settledStatus(page, ptBR.app.home.status.checking)).toBe(ptBR.bell.blocked.title + ptBR.bell.blocked.chrome);
    expect(await page.getByTestId("push-status").getAttribute("data-state")).toBe("denied");
    expect(await page.getByText(ptBR.app.home.status.off).count()).toBe(0);
    expect(await page.getByTestId("push-notice").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    // A click explains it again, and the bell stays blocked; the server never got a row.
    await denied.click();
    const notice = page.getByTestId("push-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toContain(ptBR.bell.blocked.title);
    expect(await notice.textContent()).toContain(ptBR.bell.blocked.chrome);
    expect(countStartingWith(consoleMessages, BELL_TEXT.noToken)).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await notice.getByRole("button", { name: ptBR.bell.close }).click();
    await notice.waitFor({ state: "detached" });
    await page.waitForSelector('header button[data-state="denied"][aria-busy="false"]');
    expect(await subscriptionRows(server)).toEqual([]);

    // The preferences page says the same instead of offering a button that cannot work.
    await page.goto(`${server.baseUrl}/preferencias`);
    await page.waitForSelector('[data-testid="push-status"][data-state="denied"]');
    expect(await page.getByTestId("push-status").textContent()).toBe(ptBR.bell.blocked.title + ptBR.bell.blocked.chrome);
    expect(await page.getByTestId("preferences-off").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("logs 'An error occurred while retrieving token' and shows nothing when the push service fails", async () => {
    const { page, consoleMessages } = await openPage({ mode: "throw" });
    await (await settledBell(page, "off")).click();
    await page.waitForFunction((key) => localStorage.getItem(key) === "1", STUB_STORAGE.subscribeCalls);
    await settledBell(page, "off");

    expect(countStartingWith(consoleMessages, BELL_TEXT.tokenError)).toBe(1);
    expect(await page.getByTestId("push-notice").count()).toBe(0);
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await subscriptionRows(server)).toEqual([]);
  });

  it("stops waiting for a push service that never answers: off, the seed's console message, a pt-BR notice that passes axe", async () => {
    const { page, consoleMessages } = await openPage({ mode: "hang" });
    await (await settledBell(page, "off")).click();
    await page.waitForFunction((key) => localStorage.getItem(key) === "1", STUB_STORAGE.subscribeCalls);
    // The bound is 10 s (the client's unit test pins it): wait for the outcome, not for a time.
    const notice = page.getByTestId("push-notice");
    await notice.waitFor({ timeout: 30_000 });
    expect(await notice.textContent()).toBe(ptBR.bell.failed.timeout);
    const off = await settledBell(page, "off");
    expect(await off.getAttribute("aria-label")).toBe(BELL_TEXT.enable);
    expect(countStartingWith(consoleMessages, BELL_TEXT.tokenError)).toBe(1);
    expect(await subscriptionRows(server)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("says so in pt-BR and stays off when the server refuses the subscription, undoing it in the browser", async () => {
    // Not a push service the server trusts: the API answers 400 endpoint_host_not_allowed.
    const { page } = await openPage({ endpoint: "https://push.not-allowed.example/push/1" });
    await (await settledBell(page, "off")).click();
    const notice = page.getByTestId("push-notice");
    await notice.waitFor();

    expect(await notice.textContent()).toBe(ptBR.bell.failed.enable);
    await settledBell(page, "off");
    expect(await page.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscription)).toBeNull();
    expect(await subscriptionRows(server)).toEqual([]);
  });

  it("re-registers an existing subscription on page load when the server lost it", async () => {
    const { page, endpoint, keys } = await openPage();
    await (await settledBell(page, "off")).click();
    await settledBell(page, "on");
    await server.database.db.deleteFrom("subscriptions").execute();

    await page.reload();
    await settledBell(page, "on");
    await expect.poll(() => subscriptionRows(server)).toEqual([{ endpoint, p256dh: keys.p256dh, auth: keys.auth }]);
  });

  it("works from the keyboard: Tab to the bell, Enter turns it on, Space turns it off", async () => {
    const { page } = await openPage();
    await settledBell(page, "off");
    // Tab from the top of the page until the bell has focus (the logo link comes first).
    for (let i = 0; i < 5; i += 1) {
      await page.keyboard.press("Tab");
      if (await bell(page).evaluate((el) => el === document.activeElement)) break;
    }
    expect(await bell(page).evaluate((el) => el === document.activeElement)).toBe(true);

    await page.keyboard.press("Enter");
    await settledBell(page, "on");
    expect(await subscriptionRows(server)).toHaveLength(1);

    await bell(page).focus();
    await page.keyboard.press("Space");
    await settledBell(page, "off");
    expect(await subscriptionRows(server)).toEqual([]);
  });

  it("ignores a second click while the first is being handled", async () => {
    const { page } = await openPage();
    const button = await settledBell(page, "off");
    await button.evaluate((el: HTMLElement) => {
      el.click();
      el.click();
    });
    await settledBell(page, "on");
    expect(await page.evaluate((key) => localStorage.getItem(key), STUB_STORAGE.subscribeCalls)).toBe("1");
    expect(await subscriptionRows(server)).toHaveLength(1);
  });
});

describe("the bell (PostgreSQL)", () => {
  it("turns on with a click, stays on after a reload, and turns off with a second click (server row follows)", async () => {
    const server = await startTestServer({ dialect: "postgres" });
    try {
      await onOffRoundTrip(server);
    } finally {
      await server.close();
    }
  });
});
