/**
 * The API docs page (/api/docs) in Chromium: pt-BR, no axe violation in light or dark colour
 * scheme (issue 23 item 8: stock Swagger UI was English and failed 3 critical and 2 serious
 * rules), reachable by keyboard from its first Tab, and every operation listed by operationId.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { axeViolations } from "./support/axe.js";

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  browser = await launchChromium();
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

describe("the API docs page", () => {
  for (const colorScheme of ["light", "dark"] as const) {
    it(`is pt-BR and axe-clean in the ${colorScheme} colour scheme`, async () => {
      const context = await browser.newContext({ colorScheme });
      try {
        const page = await context.newPage();
        await page.goto(server.baseUrl + "/api/docs");
        await page.getByRole("heading", { level: 1, name: ptBR.api.docs.title }).waitFor();
        expect(await page.getAttribute("html", "lang")).toBe("pt-BR");
        expect(await page.evaluate(() => getComputedStyle(document.body).colorScheme || getComputedStyle(document.documentElement).colorScheme)).toContain("dark");
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
        // The system's Canvas colour follows the scheme: dark in dark mode, light otherwise.
        const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
        expect((r! + g! + b!) / 3 > 128).toBe(colorScheme === "light");
        expect(await axeViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
      // axe walks every one of the page's ~1,200 elements: seconds alone, much longer on a busy machine.
    }, 120_000);
  }

  it("is reachable by keyboard: the first Tab offers the skip link, which leads to the routes", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(server.baseUrl + "/api/docs");
      await page.getByRole("heading", { level: 1, name: ptBR.api.docs.title }).waitFor();
      await page.keyboard.press("Tab");
      const skip = page.getByRole("link", { name: ptBR.api.docs.skip });
      await expect.poll(() => skip.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await skip.isVisible()).toBe(true);
      await page.keyboard.press("Enter");
      await expect.poll(() => page.evaluate(() => location.hash)).toBe("#conteudo");
      // The contents list links to each section by its heading.
      const nav = page.getByRole("navigation", { name: ptBR.api.docs.contents });
      const sends = nav.getByRole("link", { name: ptBR.api.tags.notifications });
      await sends.focus();
      await page.keyboard.press("Enter");
      const hash = await page.evaluate(() => location.hash);
      await expect.poll(() => page.locator(hash).evaluate((el) => el.textContent)).toBe(ptBR.api.tags.notifications);
    } finally {
      await context.close();
    }
  });

  it("lists every operation of the document by its operationId, with its summary as the screen reader reads it", async () => {
    const doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(server.baseUrl + "/api/docs");
      const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
      expect(operations.length).toBeGreaterThan(60);
      for (const { path, method, op } of operations) {
        const article = page.getByRole("article", { name: `${method.toUpperCase()} ${path}`, exact: true });
        expect(await article.count(), `${method.toUpperCase()} ${path}`).toBe(1);
        expect(await article.textContent()).toContain(op.operationId);
        expect(await article.textContent()).toContain(op.summary);
      }
    } finally {
      await context.close();
    }
  });
});
