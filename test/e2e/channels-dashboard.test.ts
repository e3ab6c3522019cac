/**
 * The dashboard's audience pages in Chromium against the real server: Canais (admin
 * creates and archives with a confirmation; a publisher only reads), Assinantes (filter by channel,
 * remove one with a confirmation), Visão geral's charts and Envio's results.
 * SINO_TEST_SCREENSHOTS=<dir> also saves desktop and 390 px phone screenshots of each page.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { User } from "../../src/shared/api/users.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startFakePushService } from "../support/fake-push/fake-push-service.js";
import type { FakePushService } from "../support/fake-push/fake-push-service.js";
import { startTestServer } from "../support/server.js";
import type { TestServer } from "../support/server.js";
import { adminCall, adminContext, createChannel, FAKE_PUSH_ENV, sendNotification, visitorWithBellOn, waitForNotification } from "./support/audience.js";
import type { Visitor } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, PUBLISHER, signInContext } from "./support/dashboard-page.js";

const C = ptBR.channels;
const S = ptBR.subscribers;
const R = ptBR.results;
const screenshots = process.env.SINO_TEST_SCREENSHOTS;

let browser: Browser;
let fake: FakePushService;
let server: TestServer;
let admin: BrowserContext;
const visitors: Visitor[] = [];
beforeAll(async () => {
  requireBuiltWebApp();
  if (screenshots) mkdirSync(screenshots, { recursive: true });
  [browser, fake] = await Promise.all([launchChromium(), startFakePushService()]);
  server = await startTestServer({ dialect: "sqlite", env: FAKE_PUSH_ENV });
  admin = await adminContext(browser, server);
  await createChannel(admin.request, server, "obras", "Obras", "Interdições e obras nas ruas do bairro.");
  await adminCall<{ user: User }>(admin.request, server, "POST", API_ROUTES.users, { ...PUBLISHER, role: "publisher" });
  // Two subscribers: one in Obras, one in no channel.
  for (const [id, channel] of [
    ["painel-obras", "Obras"],
    ["painel-none", null],
  ] as const) {
    const visitor = await visitorWithBellOn(browser, server, fake, id, "/preferencias");
    visitors.push(visitor);
    if (channel) {
      await visitor.page.getByRole("checkbox", { name: channel }).check();
      await visitor.page.getByRole("button", { name: ptBR.preferences.save }).click();
      await visitor.page.getByTestId("channels-saved").waitFor();
    }
  }
});
afterAll(async () => {
  for (const visitor of visitors) await visitor.context.close();
  await admin?.close();
  await server?.close();
  await fake?.close();
  await browser?.close();
});

async function signedInPage(width = 1280, who = ADMIN): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await signInContext(context, server.baseUrl, who);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

async function shoot(page: Page, name: string): Promise<void> {
  if (!screenshots) return;
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

describe("Canais", () => {
  it("an admin creates a channel and archives it after confirming; the list shows subscriber counts", async () => {
    const { context, page } = await signedInPage();
    try {
      await page.goto(`${server.baseUrl}/painel/canais`);
      const obras = page.locator('[data-testid="channel-row"][data-slug="obras"]');
      expect(await obras.getByTestId("channel-subscribers").textContent()).toBe("1");

      await page.getByRole("button", { name: C.new }).first().click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("textbox", { name: C.fields.name }).fill("Saúde Pública");
      expect(await dialog.getByRole("textbox", { name: C.fields.slug }).inputValue()).toBe("saude-publica");
      await dialog.getByRole("textbox", { name: C.fields.description }).fill("Campanhas de vacinação.");
      await dialog.getByRole("button", { name: C.create }).click();
      await page.getByTestId("notice").getByText("Saúde Pública", { exact: false }).waitFor();
      const saude = page.locator('[data-testid="channel-row"][data-slug="saude-publica"]');
      await saude.waitFor();
      await shoot(page, "painel-canais-desktop");

      await saude.getByRole("button", { name: `Arquivar Saúde Pública` }).click();
      const confirm = page.getByRole("dialog");
      await confirm.getByRole("button", { name: C.archive }).click();
      await saude.getByText(C.archived).filter({ visible: true }).waitFor();
      const { channels } = await adminCall<{ channels: { slug: string; archived: boolean }[] }>(admin.request, server, "GET", API_ROUTES.channels);
      expect(channels.find((c) => c.slug === "saude-publica")?.archived).toBe(true);
      // Archived: gone from the public config.
      const config = (await (await fetch(`${server.url}${API_ROUTES.config}`)).json()) as { channels: { slug: string }[] };
      expect(config.channels.map((c) => c.slug)).toEqual(["obras"]);
    } finally {
      await context.close();
    }
  });

  it("a publisher sees the channels but cannot change them", async () => {
    const { context, page } = await signedInPage(1280, PUBLISHER);
    try {
      await page.goto(`${server.baseUrl}/painel/canais`);
      await page.locator('[data-testid="channel-row"][data-slug="obras"]').waitFor();
      expect(await page.getByText(C.readOnly).isVisible()).toBe(true);
      expect(await page.getByRole("button", { name: C.new }).count()).toBe(0);
      expect(await page.getByRole("button", { name: "Arquivar Obras" }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe("Assinantes", () => {
  it("marks a subscriber whose push service refused the VAPID key (403), with its reason on focus", async () => {
    // The flag as a 403 leaves it (delivery is tested in src/delivery/engine.test.ts).
    const flagged = fake.endpointFor("painel-none");
    await server.database.db.updateTable("subscriptions").set({ vapid_mismatch_at: Date.now() }).where("endpoint", "=", flagged).execute();
    const { context, page } = await signedInPage();
    try {
      await page.goto(`${server.baseUrl}/painel/assinantes`);
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="subscriber-row"]').length === 2);
      const chips = page.getByTestId("vapid-mismatch");
      expect(await chips.count()).toBe(1);
      expect(await chips.textContent()).toBe(S.vapidMismatch);
      // The flagged row is the one in no channel.
      const row = page.getByTestId("subscriber-row").filter({ has: chips });
      expect(await row.getByText(S.noChannels).count()).toBe(1);
      await chips.focus();
      expect(await page.getByRole("tooltip").textContent()).toBe(S.vapidMismatchHint);
      expect(await chips.getAttribute("aria-describedby")).not.toBeNull();
    } finally {
      await context.close();
      await server.database.db.updateTable("subscriptions").set({ vapid_mismatch_at: null }).where("endpoint", "=", flagged).execute();
    }
  });

  it("filters by channel and removes one subscriber after confirming", async () => {
    const { context, page } = await signedInPage();
    try {
      await page.goto(`${server.baseUrl}/painel/assinantes`);
      await page.getByTestId("subscribers-summary").waitFor();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="subscriber-row"]').length === 2);
      await shoot(page, "painel-assinantes-desktop");

      await page.getByRole("combobox", { name: S.filters.channel }).click();
      await page.getByRole("option", { name: "Obras" }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="subscriber-row"]').length === 1);
      const row = page.getByTestId("subscriber-row");
      expect(await row.getByText("Obras").count()).toBe(1);

      await row.getByRole("button", { name: /^Remover o assinante/ }).click();
      await page.getByRole("dialog").getByRole("button", { name: S.remove }).click();
      await page.getByTestId("empty-state").waitFor();
      const left = await server.database.db.selectFrom("subscriptions").select("endpoint").execute();
      expect(left.map((r) => r.endpoint)).toEqual([fake.endpointFor("painel-none")]);
    } finally {
      await context.close();
    }
  });
});

describe("Visão geral and Envio", () => {
  it("show the charts and a send's results", async () => {
    const sent = await sendNotification(admin.request, server, { title: "Aviso com resultados" });
    await waitForNotification(admin.request, server, sent.id);
    const { context, page } = await signedInPage();
    try {
      await page.goto(`${server.baseUrl}/painel`);
      const charts = page.getByTestId("overview-charts");
      await charts.getByRole("figure", { name: R.charts.subscribersOverTime }).locator("svg").first().waitFor();
      expect(await charts.getByRole("figure").count()).toBe(5);
      await shoot(page, "painel-visao-geral-desktop");

      await page.goto(`${server.baseUrl}/painel/envios/${sent.id}`);
      const results = page.getByTestId("send-results");
      await results.waitFor();
      expect(await results.getByTestId("result-shown").locator("dd").textContent()).toBe("0");
      expect(await results.getByRole("link", { name: R.send.exportCsv }).getAttribute("href")).toBe(`/api/v1/notifications/${sent.id}/results.csv`);
      await shoot(page, "painel-envio-desktop");
    } finally {
      await context.close();
    }
  });

  it("fit a 390 px phone without sideways scrolling", async () => {
    const { context, page } = await signedInPage(390);
    try {
      for (const [path, name, ready] of [
        ["/painel", "painel-visao-geral-phone", "overview-charts"],
        ["/painel/canais", "painel-canais-phone", "channels-table"],
        ["/painel/assinantes", "painel-assinantes-phone", "subscribers-summary"],
      ] as const) {
        await page.goto(server.baseUrl + path);
        await page.getByTestId(ready).waitFor();
        await shoot(page, name);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      }
    } finally {
      await context.close();
    }
  });
});
