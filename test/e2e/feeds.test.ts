/**
 * Painel → Feeds in a real Chromium against the real server, whose in-process worker (`sino
 * start`) runs the feed poller: add a local RSS feed in draft mode, see the first poll mark what
 * is there, a malformed answer shown as a pt-BR error, then two new items waiting as drafts —
 * one approved (one send), one dismissed (none). axe on every state and dialog.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Locator, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { rss, startFeedServer } from "../support/feed-server.js";
import { startTestServer } from "../support/server.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";

const F = ptBR.feeds;

let browser: Browser;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await browser?.close();
});

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

/** Reloads the page until `locator` shows (the poll runs in the server's worker, a moment later). */
async function reloadUntil(page: Page, locator: () => Locator, tries = 60): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if ((await locator().count()) > 0) return;
    await page.waitForTimeout(250);
    await page.reload();
    await heading(page, F.page.title).waitFor();
  }
  await locator().first().waitFor({ timeout: 1_000 });
}

describe("Painel → Feeds", () => {
  it("adds a feed, shows polls, errors in pt-BR and the last success, and approves or dismisses drafts", async () => {
    const site = await startFeedServer();
    cleanups.push(() => site.close());
    let body = rss("Prefeitura de Exemplo", [{ guid: "1", title: "Notícia antiga", link: "https://site.example/1" }]);
    site.route("/feed", () => ({ body }));
    const app = await startTestServer({ env: { SINO_FEED_ALLOW_PRIVATE: "true", SINO_WORKER_POLL_MS: "100" } });
    cleanups.push(() => app.close());
    await createFirstAdmin(app.url);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    cleanups.push(() => context.close());
    await signInContext(context, app.baseUrl, ADMIN);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);

    await page.goto(`${app.baseUrl}/painel/feeds`);
    await heading(page, F.page.title).waitFor();
    await page.getByText(F.page.empty).waitFor();
    expect(await page.getByRole("navigation").getByRole("link", { name: F.nav }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);

    // Add: an empty URL is said beside the field before any request; then a draft feed for everyone.
    await page.getByRole("button", { name: F.page.add }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: F.form.submit }).click();
    await dialog.getByText(ptBR.errors.feed_url_invalid).waitFor();
    const url = `${site.origin}/feed`;
    await field(dialog, F.form.url).fill(url);
    await dialog.getByRole("radio", { name: F.modes.draft }).check();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: F.form.submit }).click();
    await dialog.waitFor({ state: "detached" });
    await page.getByText(F.page.created).waitFor();

    // The first poll (started at once by the embedded worker) marks the old item as seen.
    const row = () => page.getByTestId("feed-row").filter({ hasText: url });
    await reloadUntil(page, () => row().getByText(F.page.ok));
    expect(await row().getByText("Prefeitura de Exemplo").count()).toBe(1);
    expect(await row().getByTestId("feed-last-success").textContent()).not.toBe(F.page.never);
    expect(await row().getByTestId("feed-polls").textContent()).toBe("1");
    expect(await axeViolations(page)).toEqual([]);

    // A malformed answer: the error in pt-BR, with the count of errors.
    body = "<rss><channel><item><title>quebrado</channel></rss>";
    await row().getByRole("button", { name: `Ler agora: ${url}` }).click();
    await page.getByText(F.page.pollRequested).waitFor();
    await reloadUntil(page, () => row().getByTestId("feed-error"));
    expect(await row().getByTestId("feed-error").textContent()).toContain(F.pollErrors.feed_malformed);
    expect(await row().textContent()).toContain("1 erro");
    expect(await axeViolations(page)).toEqual([]);

    // Two new items: drafts, nothing sent until approved.
    body = rss("Prefeitura de Exemplo", [
      { guid: "3", title: "Vacinação começa amanhã", link: "https://site.example/3", description: "<p>Postos abertos das 8h às 17h.</p>" },
      { guid: "2", title: "Feira no sábado", link: "https://site.example/2" },
      { guid: "1", title: "Notícia antiga", link: "https://site.example/1" },
    ]);
    await row().getByRole("button", { name: `Ler agora: ${url}` }).click();
    await reloadUntil(page, () => row().getByText("2 rascunhos para aprovar"));
    expect(await row().getByTestId("feed-error").count()).toBe(0);
    expect(await row().getByTestId("feed-items-found").textContent()).toBe("2");
    expect(await app.database.db.selectFrom("notifications").select("id").execute()).toEqual([]);

    await row().getByRole("button", { name: `Itens de ${url}` }).click();
    const items = page.getByRole("dialog");
    await items.locator('[data-testid="feed-item-row"][data-status="pending"]').first().waitFor();
    expect(await items.locator('[data-testid="feed-item-row"]').count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);
    await items.getByRole("button", { name: "Aprovar e enviar: Vacinação começa amanhã" }).click();
    await items.getByText(F.items.approved).waitFor();
    await items.getByRole("button", { name: "Descartar: Feira no sábado" }).click();
    await items.getByText(F.items.dismissedDone).waitFor();
    expect(await items.locator('[data-testid="feed-item-row"][data-status="sent"]').count()).toBe(1);
    expect(await items.locator('[data-testid="feed-item-row"][data-status="dismissed"]').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await items.getByRole("button", { name: F.items.close }).click();
    await items.waitFor({ state: "detached" });

    const sends = await app.database.db.selectFrom("notifications").select(["title", "body", "url"]).execute();
    expect(sends).toEqual([{ title: "Vacinação começa amanhã", body: "Postos abertos das 8h às 17h.", url: "https://site.example/3" }]);

    // Delete, with confirmation.
    await row().getByRole("button", { name: `Excluir ${url}` }).click();
    await page.getByRole("dialog").getByRole("button", { name: F.page.delete }).click();
    await page.getByText(F.page.empty).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  }, 180_000);
});
