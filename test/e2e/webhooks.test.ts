/**
 * The Painel's Webhooks page in a real Chromium against the real server, whose in-process worker
 * (`sino start`) runs the webhook dispatcher: register a local https receiver, copy the secret
 * shown once, send a test ping the receiver verifies with the Standard Webhooks reference
 * library, see it delivered, resend it, switch the webhook off and delete it. axe on every state.
 */
import { resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer } from "../support/server.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";

const W = ptBR.webhooks;

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

describe("the Webhooks page", () => {
  it("registers a receiver, shows the secret once, tests, lists and resends deliveries, switches off and deletes", async () => {
    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const app = await startTestServer({
      env: { SINO_WEBHOOK_ALLOW_PRIVATE: "true", SINO_WEBHOOK_CA_FILE: resolve("test/fixtures/tls/ca.pem"), SINO_WORKER_POLL_MS: "100" },
    });
    cleanups.push(() => app.close());
    await createFirstAdmin(app.url);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    cleanups.push(() => context.close());
    await signInContext(context, app.baseUrl, ADMIN);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);

    await page.goto(`${app.baseUrl}/painel/webhooks`);
    await heading(page, W.title).waitFor();
    await page.getByText(W.emptyTitle).waitFor();
    expect(await page.getByRole("navigation").getByRole("link", { name: ptBR.dashboard.nav.webhooks }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);

    // Create: a missing event is said beside the checkboxes, before any request.
    await page.getByRole("button", { name: W.new }).click();
    const dialog = page.getByRole("dialog");
    const url = `${receiver.origin}/entrada`;
    await field(dialog, W.url).fill(url);
    await field(dialog, W.description).fill("CRM");
    await dialog.getByRole("button", { name: W.create }).click();
    await dialog.getByText(ptBR.errors.webhook_events_invalid).waitFor();
    await dialog.getByRole("checkbox", { name: W.events["notification.completed"] }).check();
    await dialog.getByRole("checkbox", { name: W.events["recipient.clicked"] }).check();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: W.create }).click();

    const secret = await dialog.getByTestId("webhook-secret").inputValue();
    expect(secret).toMatch(/^whsec_/);
    await dialog.getByRole("button", { name: W.copy }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    receiver.secret = secret;
    await dialog.getByRole("button", { name: W.done }).click();
    await dialog.waitFor({ state: "detached" });

    const row = page.getByTestId("webhook-row").filter({ hasText: url });
    await row.waitFor();
    expect(await row.textContent()).not.toContain(secret);

    // Test: the in-process dispatcher delivers a signed ping the reference library verifies.
    await row.getByRole("button", { name: `Enviar um evento de teste para ${url}` }).click();
    await page.getByText(W.testQueued).waitFor();
    const [ping] = await receiver.waitFor(1);
    expect(ping!.verified).toMatchObject({ type: "webhook.test" });

    // Deliveries: delivered after one attempt; Reenviar sends the same message again.
    await row.getByRole("button", { name: `Entregas de ${url}` }).click();
    const messages = page.getByRole("dialog");
    for (let i = 0; i < 50 && (await messages.locator('[data-testid="webhook-message-row"][data-status="delivered"]').count()) === 0; i++) {
      await messages.getByRole("button", { name: W.reload }).click();
      await page.waitForTimeout(100);
    }
    const delivered = messages.locator('[data-testid="webhook-message-row"][data-status="delivered"]');
    await delivered.waitFor();
    expect(await delivered.textContent()).toContain("204");
    expect(await axeViolations(page)).toEqual([]);
    await delivered.getByRole("button", { name: /^Reenviar a entrega/ }).click();
    await messages.getByText(W.resent).waitFor();
    const again = await receiver.waitFor(2);
    expect(again[1]!.headers["webhook-id"]).toBe(ping!.headers["webhook-id"]);
    await messages.getByRole("button", { name: W.close }).click();
    await messages.waitFor({ state: "detached" });

    // Switch off, then delete with confirmation.
    const toggle = row.getByRole("switch", { name: `Webhook ${url} ativo` });
    // A controlled switch: it changes once the server has answered.
    await toggle.click();
    await page.getByText(W.disabledChanged).waitFor();
    expect(await toggle.isChecked()).toBe(false);
    const stored = await app.database.db.selectFrom("webhooks").select("enabled").executeTakeFirstOrThrow();
    expect(Number(stored.enabled)).toBe(0);
    await row.getByRole("button", { name: `Excluir ${url}` }).click();
    const confirm = page.getByRole("dialog");
    await confirm.getByRole("button", { name: W.delete }).click();
    await page.getByText(W.emptyTitle).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);
});
