/**
 * The Content-Security-Policy (src/server/security-headers.ts) must not break any page: every page
 * of the public site, the Painel (signed in as admin, through its own sign-in form) and the API
 * docs loads in a real Chromium with no CSP violation reported, and the headers really are there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field } from "./support/dashboard-page.js";

let browser: Browser;
let server: TestServer;
beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  server = await startTestServer({ dialect: "sqlite" });
  await createFirstAdmin(server.url);
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

/** Collects every CSP violation the page reports, from the DOM event and from the console. */
async function watchViolations(context: BrowserContext, page: Page): Promise<string[]> {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}:${event.columnNumber}`);
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy|CSP violation/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

describe("the Content-Security-Policy in Chromium", () => {
  it("breaks no page: public site, sign-in, every Painel page and the API docs load with no violation", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const violations = await watchViolations(context, page);

      const home = await page.goto(server.baseUrl + "/");
      expect(home?.headers()["content-security-policy"]).toContain("default-src 'self'");
      await page.getByRole("heading", { level: 1 }).first().waitFor();

      // Sign in through the form: its POST must still carry the Origin the CSRF guard wants
      // under the Referrer-Policy we send.
      await page.goto(server.baseUrl + "/painel/entrar");
      await field(page, ptBR.dashboard.account.email).fill(ADMIN.email);
      await field(page, ptBR.dashboard.account.password).fill(ADMIN.password);
      await page.getByRole("button", { name: ptBR.dashboard.signIn.submit, exact: true }).click();
      await page.getByRole("heading", { name: ptBR.dashboard.overview.title, level: 1 }).waitFor();

      for (const path of ["/painel", "/painel/nova", "/painel/historico", "/painel/canais", "/painel/assinantes", "/painel/usuarios", "/painel/tokens"]) {
        await page.goto(server.baseUrl + path);
        await page.getByRole("heading", { level: 1 }).first().waitFor();
      }
      // emotion's <style> elements must have applied: a blocked one leaves MUI's buttons unstyled.
      const radius = await page.getByRole("button").first().evaluate((el) => getComputedStyle(el).cursor);
      expect(radius).toBe("pointer");

      await page.goto(server.baseUrl + "/api/docs");
      await page.getByRole("heading", { level: 1, name: ptBR.api.docs.title }).waitFor();

      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("reports a violation when a page tries inline script (the check can fail)", async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const violations = await watchViolations(context, page);
      await page.goto(server.baseUrl + "/");
      await page.evaluate(() => {
        const script = document.createElement("script");
        script.textContent = "window.injected = true";
        document.body.append(script);
      });
      await expect.poll(() => violations.length).toBeGreaterThan(0);
      expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
