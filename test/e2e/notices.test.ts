/**
 * Avisos, the public home page: what was sent, newest first, with relative times in
 * pt-BR; a new notification appears without a reload (SSE); text is text, never markup.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startFakePushService } from "../support/fake-push/fake-push-service.js";
import type { FakePushService } from "../support/fake-push/fake-push-service.js";
import { startTestServer } from "../support/server.js";
import type { TestServer } from "../support/server.js";
import { adminContext, createChannel, FAKE_PUSH_ENV, sendNotification, waitForNotification } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";

const A = ptBR.notices;

let browser: Browser;
let fake: FakePushService;
let server: TestServer;
let admin: BrowserContext;
beforeAll(async () => {
  requireBuiltWebApp();
  [browser, fake] = await Promise.all([launchChromium(), startFakePushService()]);
  server = await startTestServer({ dialect: "sqlite", env: FAKE_PUSH_ENV });
  admin = await adminContext(browser, server);
  await createChannel(admin.request, server, "obras", "Obras");
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
  await fake?.close();
  await browser?.close();
});

describe("the Avisos page", () => {
  it("lists a new send without a reload, newest first, as text, with its link and a pt-BR relative time", async () => {
    const first = await sendNotification(admin.request, server, { title: "Primeiro aviso", body: "Corpo do primeiro." });
    await waitForNotification(admin.request, server, first.id);

    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(server.baseUrl);
      await page.getByTestId("notice").filter({ hasText: "Primeiro aviso" }).waitFor();
      expect(await page.getByTestId("notice-time").first().textContent()).toBe(A.justNow);
      // Loaded in this document, not by navigating: a reload would reset this mark.
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      const hostile = '<img src=x onerror="window.pwned=1">Obra na <b>rua</b>';
      const second = await sendNotification(admin.request, server, {
        title: hostile,
        body: "Linha 1\nLinha 2",
        url: "https://www.gov.br/obras",
        audience: { type: "channels", channels: ["obras"] },
      });
      await waitForNotification(admin.request, server, second.id);

      const card = page.getByTestId("notice").filter({ hasText: "Obra na" });
      await card.waitFor();
      expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
      expect(await card.getByRole("heading").textContent()).toBe(hostile);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(await card.locator("img").count()).toBe(0);
      const link = card.getByRole("link", { name: A.openLink });
      expect(await link.getAttribute("href")).toBe("https://www.gov.br/obras");
      expect(await link.getAttribute("rel")).toBe("noopener noreferrer");
      expect(await card.getByText("Obras", { exact: true }).count()).toBe(1);

      const titles = await page.getByTestId("notice").getByRole("heading").allTextContents();
      expect(titles).toEqual([hostile, "Primeiro aviso"]);

      // The channel filter keeps only that channel's notices.
      await page.getByTestId("channel-filter").getByRole("button", { name: "Obras" }).click();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="notice"]').length === 1);
      expect(await page.getByTestId("notice").getByRole("heading").allTextContents()).toEqual([hostile]);
      expect(new URL(page.url()).searchParams.get("canal")).toBe("obras");
    } finally {
      await context.close();
    }
  });

  it("pages with 'Carregar mais'", async () => {
    // 20 per page (NOTICES_PAGE_SIZE); the test above sent some too.
    for (let i = 1; i <= 20; i++) {
      const sent = await sendNotification(admin.request, server, { title: `Aviso em série ${i}` });
      await waitForNotification(admin.request, server, sent.id);
    }
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(server.baseUrl);
      await page.getByTestId("notice").first().waitFor();
      expect(await page.getByTestId("notice").count()).toBe(20);
      await page.getByRole("button", { name: A.loadMore }).click();
      await page.getByText(A.end).waitFor();
      const all = (await (await fetch(`${server.url}/api/v1/notices?limit=100`)).json()) as { notices: unknown[] };
      expect(all.notices.length).toBeGreaterThan(20);
      expect(await page.getByTestId("notice").count()).toBe(all.notices.length);
      expect(await page.getByTestId("notice").last().getByRole("heading").textContent()).toBe("Primeiro aviso");
    } finally {
      await context.close();
    }
  });
});
