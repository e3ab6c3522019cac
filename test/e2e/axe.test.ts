/**
 * Every page of the web app, checked by axe-core in Chromium against the real server: the public
 * pages (home with the Avisos, Preferências, 404, the denied-permission notice) and every page of
 * the Painel (set-up, sign-in, overview, compose with its confirmation, history with a scheduled
 * send, a send, channels, subscribers, users, tokens, its 404). Any violation fails the test, listed
 * one per line with the rule, its impact, the elements and axe's summary of what to fix. Every page
 * is checked twice: with the system in light mode and in dark mode (the app follows it), so the
 * dark palette's colour contrast is held to the same rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { Notification } from "../../src/shared/api/notifications.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { adminCall, createChannel, sendNotification } from "./support/audience.js";
import { settledBell } from "./support/bell-page.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";
import { axeViolations } from "./support/axe.js";

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens `path`, waits for its main heading and for loading indicators to go, then runs axe. */
async function check(page: Page, path: string, ready: (page: Page) => Promise<void> = defaultReady): Promise<{ path: string; violations: string[] }> {
  await page.goto(server.baseUrl + path);
  await ready(page).catch((error: unknown) => {
    throw new Error(`${path} did not finish loading`, { cause: error });
  });
  return { path, violations: await axeViolations(page) };
}

async function defaultReady(page: Page): Promise<void> {
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await page.waitForFunction(() => document.querySelector(".MuiSkeleton-root, .MuiCircularProgress-root") === null);
}

describe.each(["light", "dark"] as const)("axe on every page (system in %s mode)", (colorScheme) => {
  beforeAll(async () => {
    // No worker: sends stay as created (queued or scheduled), so every page shows a stable state.
    // A server per mode: the Painel's set-up page is only there before the first operator.
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("finds nothing on the public pages, the denied-permission notice included", async () => {
    const context = await browser.newContext({ colorScheme });
    try {
      // No permission granted: headless Chromium denies it, and the bell explains how to unblock.
      await installPushStub(context, { endpoint: testEndpoint(), keys: makeSubscriptionKeys() });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const results = [await check(page, "/"), await check(page, "/preferencias"), await check(page, "/pagina-que-nao-existe")];
      await page.goto(server.baseUrl);
      await (await settledBell(page, "off")).click();
      await page.getByTestId("push-notice").waitFor();
      results.push({ path: "/ (permissão negada)", violations: await axeViolations(page) });
      expect(results).toEqual(results.map(({ path }) => ({ path, violations: [] })));
    } finally {
      await context.close();
    }
  }, 120_000);

  it("finds nothing on any page of the Painel", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      // Set-up is only offered before the first operator exists.
      const results = [await check(page, "/painel/configuracao")];
      await createFirstAdmin(server.url);
      results.push(await check(page, "/painel/entrar"));
      await signInContext(context, server.baseUrl, ADMIN);

      await createChannel(context.request, server, "obras", "Obras", "Avisos de obras na rua");
      const sub = aBrowserSubscription();
      await adminCall(context.request, server, "POST", API_ROUTES.subscriptions, sub);
      await adminCall(context.request, server, "PUT", API_ROUTES.subscriptionChannels, { endpoint: sub.endpoint, auth: sub.keys.auth, channels: ["obras"] });
      await adminCall(context.request, server, "POST", API_ROUTES.tokens, { name: "Implantação", scope: "publish" });
      const scheduled: Notification = await sendNotification(context.request, server, {
        title: "Manutenção programada",
        body: "O sistema fica fora do ar por uma hora.",
        sendAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
        audience: { type: "channels", channels: ["obras"] },
      });
      const now: Notification = await sendNotification(context.request, server, { title: "Aviso geral", url: "/preferencias" });

      for (const path of ["/painel", "/painel/nova", "/painel/historico", "/painel/canais", "/painel/assinantes", "/painel/usuarios", "/painel/tokens", "/painel/segmentos", "/painel/nao-existe"]) {
        results.push(await check(page, path));
      }
      results.push(await check(page, `/painel/envios/${scheduled.id}`));
      results.push(await check(page, `/painel/envios/${now.id}`));

      // The compose confirmation dialog.
      await page.goto(`${server.baseUrl}/painel/nova`);
      await field(page, ptBR.dashboard.compose.fields.title).fill("Teste de acessibilidade");
      await page.getByRole("button", { name: ptBR.dashboard.compose.submit.now }).click();
      await page.getByRole("dialog").waitFor();
      results.push({ path: "/painel/nova (confirmação)", violations: await axeViolations(page) });

      expect(results).toEqual(results.map(({ path }) => ({ path, violations: [] })));
    } finally {
      await context.close();
    }
  }, 300_000);
});
