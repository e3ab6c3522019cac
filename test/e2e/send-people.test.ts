/**
 * The compose form's "Pessoas específicas" audience, in Chromium against the real server: an admin
 * pastes user ids one per line, sees how many people that is, picks the category, and the
 * confirmation says how many people and how many of their subscriptions the send reaches now. The
 * form stays axe-clean with the people field, the category and the advanced options shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { adminCall, adminContext } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { field, helperTextOf } from "./support/dashboard-page.js";
import { axeViolations } from "./support/axe.js";

const C = ptBR.dashboard.compose;

let browser: Browser;
let server: TestServer;
let admin: BrowserContext;

/** Registers a subscription (as a browser would) identified as `person`. */
async function subscriptionOf(person: string): Promise<void> {
  const sub = aBrowserSubscription();
  await adminCall(admin.request, server, "POST", API_ROUTES.subscriptions, sub);
  await server.database.db.updateTable("subscriptions").set({ person_id: person, identified_at: Date.now() }).where("endpoint", "=", sub.endpoint).execute();
}

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  // No worker: the send stays queued (its subscriptions point at a real push service's host).
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  admin = await adminContext(browser, server);
  // ana has two browsers, bia one; one more subscriber is anonymous.
  await subscriptionOf("ana");
  await subscriptionOf("ana");
  await subscriptionOf("bia");
  await adminCall(admin.request, server, "POST", API_ROUTES.subscriptions, aBrowserSubscription());
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
  await browser?.close();
});

describe("the compose form's people audience", () => {
  it("counts the people pasted, confirms people and subscriptions, sends a transactional users send, and stays axe-clean", async () => {
    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${server.baseUrl}/painel/nova`);
      await field(page, C.fields.title).fill("Seu pedido saiu para entrega");
      await page.getByRole("radio", { name: C.people.people }).check();
      const ids = field(page, C.people.ids);
      // Blank lines and repeats are not people.
      await ids.fill("ana\nbia\n\nzé\nana");
      expect(await helperTextOf(ids)).toBe("3 pessoas");
      await page.getByRole("combobox", { name: C.people.category }).click();
      await page.getByRole("option", { name: C.people.categories.transactional }).click();
      await page.getByRole("button", { name: C.advanced.title }).click();
      await field(page, C.advanced.collapseKey).fill("pedido-4821");
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole("button", { name: C.submit.now }).click();
      const dialog = page.getByRole("dialog");
      await dialog.waitFor();
      expect(await dialog.getByRole("heading").textContent()).toBe("Enviar para 3 pessoas?");
      const confirmation = await dialog.locator("p").first().textContent();
      expect(confirmation?.startsWith("“Seu pedido saiu para entrega” será enviada agora para 3 pessoas (3 inscrições).")).toBe(true);
      // A transactional send says the cap and the sleeping rule do not apply to it (issue 18).
      expect(confirmation).toContain(ptBR["delivery-rules"].compose.confirmTransactional);
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: C.submit.now }).click();
      await page.waitForURL(/\/painel\/envios\/\d+/);

      const id = /\/envios\/(\d+)/.exec(page.url())![1]!;
      const sent = await adminCall<{ notification: Record<string, unknown> }>(admin.request, server, "GET", `${API_ROUTES.notifications}/${id}`);
      expect(sent.notification).toMatchObject({ category: "transactional", collapseKey: "pedido-4821", audience: { type: "users", users: 3 }, counts: { queued: 3 } });
    } finally {
      await page.close();
    }
  });

  it("refuses an invalid id beside the field before asking anything", async () => {
    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${server.baseUrl}/painel/nova`);
      await field(page, C.fields.title).fill("Oi");
      await page.getByRole("radio", { name: C.people.people }).check();
      await page.getByRole("button", { name: C.submit.now }).click();
      const ids = field(page, C.people.ids);
      expect(await helperTextOf(ids)).toBe(C.people.required);
      await ids.fill(`ana\n${"x".repeat(129)}`);
      await page.getByRole("button", { name: C.submit.now }).click();
      expect(await helperTextOf(ids)).toContain("Id de usuário inválido");
      expect(await page.getByRole("dialog").count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
