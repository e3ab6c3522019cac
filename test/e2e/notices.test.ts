/**
 * Avisos, the public home page: what was sent, newest first, with relative times in
 * pt-BR; a new notification appears without a reload (SSE); text is text, never markup.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { createChannel, sendNotification, waitForNotification } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";

const A = ptBR.notices;

const run = useAdminOnFakePush();
beforeAll(async () => {
  await createChannel(run.admin.request, run.server, "obras", "Obras");
});

describe("the Avisos page", () => {
  it("lists a new send without a reload, newest first, as text, with its link and a pt-BR relative time", async () => {
    const first = await sendNotification(run.admin.request, run.server, { title: "Primeiro aviso", body: "Corpo do primeiro." });
    await waitForNotification(run.admin.request, run.server, first.id);

    const context = await run.browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(run.server.baseUrl);
      await page.getByTestId("notice").filter({ hasText: "Primeiro aviso" }).waitFor();
      expect(await page.getByTestId("notice-time").first().textContent()).toBe(A.justNow);
      // Loaded in this document, not by navigating: a reload would reset this mark.
      await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

      const hostile = '<img src=x onerror="window.pwned=1">Obra na <b>rua</b>';
      const second = await sendNotification(run.admin.request, run.server, {
        title: hostile,
        body: "Linha 1\nLinha 2",
        url: "https://www.gov.br/obras",
        audience: { type: "channels", channels: ["obras"] },
      });
      await waitForNotification(run.admin.request, run.server, second.id);

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
      const sent = await sendNotification(run.admin.request, run.server, { title: `Aviso em série ${i}` });
      await waitForNotification(run.admin.request, run.server, sent.id);
    }
    const context = await run.browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(run.server.baseUrl);
      await page.getByTestId("notice").first().waitFor();
      expect(await page.getByTestId("notice").count()).toBe(20);
      await page.getByRole("button", { name: A.loadMore }).click();
      await page.getByText(A.end).waitFor();
      const all = (await (await fetch(`${run.server.url}/api/v1/notices?limit=100`)).json()) as { notices: unknown[] };
      expect(all.notices.length).toBeGreaterThan(20);
      expect(await page.getByTestId("notice").count()).toBe(all.notices.length);
      expect(await page.getByTestId("notice").last().getByRole("heading").textContent()).toBe("Primeiro aviso");
    } finally {
      await context.close();
    }
  });

  it("shows the bell instead of a broken-image glyph for a dead icon, and leaves a dead image out (axe-clean)", async () => {
    // Nothing listens on port 9 of this machine: both addresses fail to load.
    const sent = await sendNotification(run.admin.request, run.server, {
      title: "Aviso com imagens mortas",
      icon: "https://127.0.0.1:9/icone.png",
      image: "https://127.0.0.1:9/imagem.png",
    });
    await waitForNotification(run.admin.request, run.server, sent.id);
    const context = await run.browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(run.server.baseUrl);
      const card = page.getByTestId("notice").filter({ hasText: "Aviso com imagens mortas" });
      await card.getByTestId("notice-icon-fallback").waitFor();
      await page.waitForFunction(() => !document.querySelector('[data-testid="notice-image"]'));
      expect(await card.locator("img").count()).toBe(0);
      expect(await card.getByTestId("notice-icon-fallback").locator("svg").count()).toBe(1);
      // No image anywhere on the page is left broken (complete but with no pixels).
      expect(await page.evaluate(() => [...document.images].filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src))).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("opens /p/todos and /p/<canal> in a browser as Avisos, all of them or that channel's", async () => {
    const sent = await sendNotification(run.admin.request, run.server, { title: "Só para obras", audience: { type: "channels", channels: ["obras"] } });
    await waitForNotification(run.admin.request, run.server, sent.id);
    const context = await run.browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${run.server.baseUrl}/p/todos`);
      await page.getByRole("heading", { level: 1, name: A.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
      expect(await page.getByText(ptBR.app.notFound.title).count()).toBe(0);
      await page.getByTestId("notice").filter({ hasText: "Aviso com imagens mortas" }).waitFor();

      await page.goto(`${run.server.baseUrl}/p/obras`);
      await page.getByTestId("notice").filter({ hasText: "Só para obras" }).waitFor();
      expect(new URL(page.url()).searchParams.get("canal")).toBe("obras");
      expect(await page.getByTestId("notice").filter({ hasText: "Aviso com imagens mortas" }).count()).toBe(0);
      expect(await page.getByTestId("channel-filter").getByRole("button", { name: "Obras" }).getAttribute("aria-pressed")).toBe("true");
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
