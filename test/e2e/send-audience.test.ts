/**
 * The compose confirmation names who will receive the send, in Chromium against the real server:
 * everyone or the chosen channels by name, narrowed to the chosen sites, with the recipient count
 * the server takes right now (pt-BR plurals), and the Envio page names the channels instead of
 * showing a raw catalog key, and the sites a send was narrowed to by origin.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { SiteResponse } from "../../src/shared/api/sites.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { adminCall, adminContext, createChannel } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { field } from "./support/dashboard-page.js";
import { axeViolations } from "./support/axe.js";

const P = ptBR.dashboard;

let browser: Browser;
let server: TestServer;
let admin: BrowserContext;

/** Registers a subscription (as a browser would) and puts it in these channels. */
async function subscriber(channels: string[]): Promise<void> {
  const sub = aBrowserSubscription();
  await adminCall(admin.request, server, "POST", API_ROUTES.subscriptions, sub);
  await adminCall(admin.request, server, "PUT", API_ROUTES.subscriptionChannels, { endpoint: sub.endpoint, auth: sub.keys.auth, channels });
}

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  // No worker: the sends stay queued (their subscriptions point at a real push service's host).
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  admin = await adminContext(browser, server);
  await createChannel(admin.request, server, "obras", "Obras");
  await createChannel(admin.request, server, "eventos", "Eventos");
  await createChannel(admin.request, server, "vagas", "Vagas");
  // 3 only in Obras, 2 only in Eventos, 1 in both, 1 in Vagas, 1 in none: 8 in all.
  for (const channels of [["obras"], ["obras"], ["obras"], ["eventos"], ["eventos"], ["obras", "eventos"], ["vagas"], []]) await subscriber(channels);
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
  await browser?.close();
});

/** Registers a site, then one browser subscribing on it per entry (the embedded bell's request, made from Node), in those channels. */
async function siteWithSubscribers(origin: string, subscribers: string[][]): Promise<void> {
  const { site } = await adminCall<SiteResponse>(admin.request, server, "POST", API_ROUTES.sites, { origin });
  for (const channels of subscribers) {
    const sub = aBrowserSubscription();
    const res = await fetch(server.url + API_ROUTES.subscriptions, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ ...sub, site: site.key }),
    });
    if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
    await adminCall(admin.request, server, "PUT", API_ROUTES.subscriptionChannels, { endpoint: sub.endpoint, auth: sub.keys.auth, channels });
  }
}

/** Ticks options of one of the compose form's multiple selects (channels or sites), by the start of their names. */
async function tick(page: Page, label: string, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await page.getByRole("combobox", { name: label }).click();
  for (const name of names) await page.getByRole("option", { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`) }).click();
  await page.keyboard.press("Escape");
}

async function composeAndConfirm(page: Page, title: string, channels: string[], sites: string[] = []): Promise<{ title: string; text: string }> {
  await page.goto(`${server.baseUrl}/painel/nova`);
  await field(page, P.compose.fields.title).fill(title);
  await tick(page, P.compose.fields.audience, channels);
  await tick(page, ptBR.sites.audience.label, sites);
  await page.getByRole("button", { name: P.compose.submit.now }).click();
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  return { title: (await dialog.getByRole("heading").textContent()) ?? "", text: (await dialog.locator("p").first().textContent()) ?? "" };
}

describe("the send confirmation", () => {
  it("names the channels and counts each subscriber once; everyone is counted too", async () => {
    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      expect(await composeAndConfirm(page, "Obra na rua 3", ["Obras", "Eventos"])).toEqual({
        title: "Enviar para os canais Obras e Eventos?",
        text: "“Obra na rua 3” será enviada agora para quem assina os canais Obras e Eventos (6 assinantes).",
      });
      await page.getByRole("dialog").getByRole("button", { name: ptBR.dashboard.common.cancel }).click();

      expect(await composeAndConfirm(page, "Vaga aberta", ["Vagas"])).toEqual({
        title: "Enviar para o canal Vagas?",
        text: "“Vaga aberta” será enviada agora para quem assina o canal Vagas (1 assinante).",
      });
      await page.getByRole("dialog").getByRole("button", { name: ptBR.dashboard.common.cancel }).click();

      expect(await composeAndConfirm(page, "Para todos", [])).toEqual({
        title: "Enviar para todos os assinantes?",
        text: "“Para todos” será enviada agora para todos os assinantes (8 assinantes).",
      });
    } finally {
      await page.close();
    }
  });

  // After the counts above: its site's subscribers would change them.
  it("counts only the subscribers of the chosen site, names the site, and stays axe-clean", async () => {
    const site = "https://www.exemplo.com.br";
    // On the site: 2 in Obras, 1 in none; the 8 on Sino's own page are not counted.
    await siteWithSubscribers(site, [["obras"], ["obras"], []]);
    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      expect(await composeAndConfirm(page, "Só no site", [], [site])).toEqual({
        title: "Enviar para o site https://www.exemplo.com.br?",
        text: "“Só no site” será enviada agora para todos os assinantes do site https://www.exemplo.com.br (3 assinantes).",
      });
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("dialog").getByRole("button", { name: ptBR.dashboard.common.cancel }).click();

      expect(await composeAndConfirm(page, "Obra no site", ["Obras"], [site])).toEqual({
        title: "Enviar para o canal Obras?",
        text: "“Obra no site” será enviada agora para quem assina o canal Obras no site https://www.exemplo.com.br (2 assinantes).",
      });
    } finally {
      await page.close();
    }
  });

  // After the site test above, which registered https://www.exemplo.com.br.
  it("sends narrowed to sites and the Envio page names them by origin, Sino's own by its public origin, and stays axe-clean", async () => {
    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    const audience = page.locator("dt", { hasText: ptBR.notifications.details.audience }).locator("xpath=following-sibling::dd[1]");
    try {
      await composeAndConfirm(page, "Só no site", [], ["https://www.exemplo.com.br"]);
      await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.now }).click();
      await page.getByRole("heading", { level: 1, name: "Só no site" }).waitFor();
      // The page shows the site's number until the site list arrives, then its origin.
      await audience.filter({ hasText: "https://www.exemplo.com.br" }).waitFor();
      expect(await audience.textContent()).toBe("Todos os assinantes do site https://www.exemplo.com.br");
      expect(await axeViolations(page)).toEqual([]);

      // Sino's own site is named by SINO_PUBLIC_URL's origin (the test server's is http://localhost:8080);
      // the send keeps its sites by number, whatever order they were ticked in, so the built-in one comes first.
      await composeAndConfirm(page, "Obra nos sites", ["Obras"], ["https://www.exemplo.com.br", "http://localhost:8080"]);
      await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.now }).click();
      await page.getByRole("heading", { level: 1, name: "Obra nos sites" }).waitFor();
      await audience.filter({ hasText: /Obras nos sites http:\/\/localhost:8080 e https:\/\/www\.exemplo\.com\.br/ }).waitFor();
      expect(await audience.textContent()).toBe("Quem assina o canal Obras nos sites http://localhost:8080 e https://www.exemplo.com.br");
    } finally {
      await page.close();
    }
  });

  it("sends to the channels and the Envio page names them (no raw catalog key)", async () => {
    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await composeAndConfirm(page, "Obra e evento", ["Obras", "Eventos"]);
      await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.now }).click();
      await page.getByRole("heading", { level: 1, name: "Obra e evento" }).waitFor();
      const audience = page.locator("dt", { hasText: ptBR.notifications.details.audience }).locator("xpath=following-sibling::dd[1]");
      // The page shows the slugs until the channel list arrives, then the channels' names.
      await audience.filter({ hasText: /Obras e Eventos/ }).waitFor(); // a string would match case-insensitively
      expect(await audience.textContent()).toBe("Quem assina os canais Obras e Eventos");
      expect(await page.locator("main").textContent()).not.toMatch(/notifications\.|envios\.|dashboard\./);
    } finally {
      await page.close();
    }
  });
});
