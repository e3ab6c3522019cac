/**
 * Issue 18 (LGPD) in Chromium against the real server: the Painel's Auditoria page (admin only,
 * filters, the CSV export of what is filtered) and the public /privacidade page (linked from the
 * public pages' footer, its periods from the running configuration), each checked by axe in light
 * and dark mode.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { adminCall } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, PUBLISHER, createFirstAdmin, navLabels, signInContext } from "./support/dashboard-page.js";
import { axeViolations } from "./support/axe.js";

const A = ptBR.audit;
let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_EVENT_RETENTION_DAYS: "200", SINO_REMOVED_RETENTION_DAYS: "15" } });
  await createFirstAdmin(server.url);
  // A refused sign-in, from a script with its own User-Agent.
  const refused = await fetch(server.url + API_ROUTES.session, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url, "user-agent": "curl/8.5.0" },
    body: JSON.stringify({ email: "intruso@example.com", password: "nao-e-a-senha" }),
  });
  expect(refused.status).toBe(401);
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

describe("the public /privacidade page", () => {
  it.each(["light", "dark"] as const)("is reached from the footer, lists the running configuration's periods, and axe finds nothing (%s)", async (colorScheme) => {
    const context = await browser.newContext({ colorScheme });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(server.baseUrl + "/");
      await page.getByRole("link", { name: A.privacy.footerLink }).click();
      await page.getByRole("heading", { level: 1, name: A.privacy.title }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/privacidade");
      const table = page.getByRole("table", { name: A.privacy.tableLabel });
      await table.waitFor();
      expect(await page.getByTestId("privacy-row-events").locator("td").last().textContent()).toBe(A.privacy.rows.eventsDays.replace("{{days}}", "200"));
      expect(await page.getByTestId("privacy-row-removed").locator("td").last().textContent()).toBe(A.privacy.rows.removedDays.replace("{{days}}", "15"));
      expect(await page.getByTestId("privacy-row-audit").locator("td").last().textContent()).toBe(A.privacy.rows.auditDays.replace("{{days}}", "730"));
      expect(await page.getByTestId("privacy-row-consent").locator("td").last().textContent()).toBe(A.privacy.rows.consentDays.replace("{{days}}", (1825).toLocaleString("pt-BR")));
      expect(await page.getByTestId("privacy-row-subscription").locator("td").last().textContent()).toBe(A.privacy.rows.subscriptionInactive.replace("{{days}}", "60"));
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe("Painel → Auditoria", () => {
  it.each(["light", "dark"] as const)("shows the admin who did what and from where, filters, exports the filtered CSV, and axe finds nothing (%s)", async (colorScheme) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    try {
      await signInContext(context, server.baseUrl, ADMIN);
      await adminCall(context.request, server, "POST", API_ROUTES.tokens, { name: `Implantação ${colorScheme}`, scope: "publish" });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.baseUrl}/painel`);
      await page.getByRole("navigation").getByRole("link", { name: ptBR.dashboard.nav.history }).waitFor();
      expect(await navLabels(page)).toContain(A.page.nav);
      await page.getByRole("navigation").getByRole("link", { name: A.page.nav }).click();
      await page.getByRole("heading", { level: 1, name: A.page.title }).waitFor();
      await page.getByTestId("audit-row").first().waitFor();
      const actions = await page.getByTestId("audit-row").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
      expect(actions).toEqual(expect.arrayContaining(["setup.first_admin", "session.sign_in_failed", "session.sign_in", "token.create"]));
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole("combobox", { name: A.page.action }).click();
      await page.getByRole("option", { name: A.actions.session.sign_in_failed }).click();
      await page.waitForFunction(() => [...document.querySelectorAll("[data-testid=audit-row]")].every((r) => r.getAttribute("data-action") === "session.sign_in_failed"));
      const row = page.getByTestId("audit-row");
      expect(await row.count()).toBe(1);
      expect(await row.textContent()).toContain("intruso@example.com");
      expect(await row.textContent()).toContain("curl/8.5.0");
      expect(await row.textContent()).toContain(A.actions.session.sign_in_failed);
      expect(await axeViolations(page)).toEqual([]);

      const href = await page.getByTestId("audit-export").getAttribute("href");
      expect(href).toBe(`${API_ROUTES.auditCsv}?action=session.sign_in_failed`);
      const csv = await context.request.get(server.baseUrl + href!);
      expect(csv.status()).toBe(200);
      const lines = (await csv.text()).replace(/^\uFEFF/, "").trimEnd().split("\r\n");
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain("intruso@example.com,session.sign_in_failed");
    } finally {
      await context.close();
    }
  }, 120_000);

  it("is not offered to a publisher, and its API refuses them", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const admin = await browser.newContext();
      await signInContext(admin, server.baseUrl, ADMIN);
      await adminCall(admin.request, server, "POST", API_ROUTES.users, { ...PUBLISHER, role: "publisher" }).catch(() => undefined);
      await admin.close();
      await signInContext(context, server.baseUrl, PUBLISHER);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.baseUrl}/painel`);
      await page.getByRole("navigation").getByRole("link", { name: ptBR.dashboard.nav.history }).waitFor();
      const labels = await navLabels(page);
      expect(labels).toContain(ptBR.dashboard.nav.compose);
      expect(labels).not.toContain(A.page.nav);
      expect((await context.request.get(server.baseUrl + API_ROUTES.audit)).status()).toBe(403);
    } finally {
      await context.close();
    }
  }, 60_000);
});
