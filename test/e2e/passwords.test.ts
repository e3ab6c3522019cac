/**
 * Passwords and accent-free search in the Painel, in a real Chromium against the real server:
 * an admin resets someone's password (temporary one shown once, their session ends), that person
 * is made to choose a new one before anything else, anyone changes their own from the menu, and
 * the Histórico and Assinantes searches find "Manutenção" and "João" typed without accents. Axe
 * on every page and dialog touched.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { createSubscriptionsRepository } from "../../src/store/subscriptions-repository.js";
import { launchChromium } from "../support/browser.js";
import { insertPlaceholderSubscriptions } from "../support/delivery.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, PUBLISHER, createFirstAdmin, field, helperTextOf, signInContext } from "./support/dashboard-page.js";

const P = ptBR.dashboard;
const E = ptBR.errors;

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

async function server(): Promise<TestServer> {
  const started = await startTestServer();
  cleanups.push(() => started.close());
  return started;
}

async function newPage(width = 1280): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 860 } });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
const fill = (text: string, values: Record<string, string>) => Object.entries(values).reduce((out, [k, v]) => out.replace(`{{${k}}}`, v), text);
/**
 * A password field by its visible label: a hidden password has no textbox role, and its label's
 * text carries MUI's required mark (an aria-hidden " *").
 */
const passwordField = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s*\\*)?$`));

async function addPublisher(context: BrowserContext, baseUrl: string): Promise<string> {
  const res = await context.request.post(baseUrl + API_ROUTES.users, {
    data: { ...PUBLISHER, role: "publisher" },
    headers: { origin: baseUrl },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { user: { id: string } }).user.id;
}

describe("passwords in the Painel", () => {
  it("lets an admin reset a password: shown once, the person's session ends, and they must choose a new one first", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const admin = await newPage();
    await signInContext(admin.context, app.baseUrl, ADMIN);
    await addPublisher(admin.context, app.baseUrl);

    // Paulo is working in another browser.
    const paulo = await newPage();
    await signInContext(paulo.context, app.baseUrl, PUBLISHER);
    await paulo.page.goto(`${app.baseUrl}/painel`);
    await heading(paulo.page, P.overview.title).waitFor();

    await admin.page.goto(`${app.baseUrl}/painel/usuarios`);
    const row = admin.page.locator(`[data-testid="user-row"][data-email="${PUBLISHER.email}"]`);
    await row.waitFor();
    // One's own row has the button disabled: an admin changes their own with the current one.
    const own = admin.page.locator(`[data-testid="user-row"][data-email="${ADMIN.email}"]`);
    expect(await own.getByRole("button", { name: fill(P.users.resetPasswordNamed, { name: ADMIN.name }) }).isDisabled()).toBe(true);

    await row.getByRole("button", { name: fill(P.users.resetPasswordNamed, { name: PUBLISHER.name }) }).click();
    const dialog = admin.page.getByRole("dialog");
    await dialog.getByRole("heading", { name: fill(P.users.resetTitle, { name: PUBLISHER.name }) }).waitFor();
    expect(await dialog.textContent()).not.toContain(P.users.initialPassword);
    expect(await axeViolations(admin.page)).toEqual([]);
    await dialog.getByRole("button", { name: P.users.resetConfirm }).click();

    const shown = dialog.getByTestId("temporary-password");
    await shown.waitFor();
    const temporary = await shown.inputValue();
    expect(temporary).toMatch(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/);
    expect(await dialog.getByRole("textbox", { name: P.users.temporaryPassword }).inputValue()).toBe(temporary);
    expect(await axeViolations(admin.page)).toEqual([]);
    // Closing is a deliberate act: the dialog stays until "Concluído".
    await dialog.getByRole("button", { name: P.users.done }).click();
    await dialog.waitFor({ state: "detached" });
    await row.getByTestId("must-change-chip").waitFor();

    // Paulo's session is over.
    await paulo.page.reload();
    await heading(paulo.page, P.signIn.title).waitFor();

    // With the temporary password he lands on the change page, whatever he asked for.
    await paulo.page.goto(`${app.baseUrl}/painel/historico`);
    await heading(paulo.page, P.signIn.title).waitFor();
    await field(paulo.page, P.account.email).fill(PUBLISHER.email);
    await passwordField(paulo.page, P.account.password).fill(temporary);
    await paulo.page.getByRole("button", { name: P.signIn.submit, exact: true }).click();
    await heading(paulo.page, P.password.requiredTitle).waitFor();
    expect(new URL(paulo.page.url()).pathname).toBe("/painel/senha");
    expect(await paulo.page.getByRole("navigation").count()).toBe(0);
    expect(await axeViolations(paulo.page)).toEqual([]);

    // Typing a different confirmation is caught before any request; the same password again by the server.
    await passwordField(paulo.page, P.password.temporary).fill(temporary);
    await passwordField(paulo.page, P.password.new).fill("a frase nova do Paulo");
    await passwordField(paulo.page, P.password.confirm).fill("outra coisa");
    await paulo.page.getByRole("button", { name: P.password.submit }).click();
    expect(await helperTextOf(passwordField(paulo.page, P.password.confirm))).toBe(P.password.errors.confirmMismatch);
    await passwordField(paulo.page, P.password.new).fill(temporary);
    await passwordField(paulo.page, P.password.confirm).fill(temporary);
    await paulo.page.getByRole("button", { name: P.password.submit }).click();
    await expect.poll(() => helperTextOf(passwordField(paulo.page, P.password.new))).toBe(E.password_unchanged);
    expect(await axeViolations(paulo.page)).toEqual([]);

    // Keyboard only: type the new one twice and press Enter.
    await passwordField(paulo.page, P.password.new).fill("");
    await passwordField(paulo.page, P.password.new).focus();
    await paulo.page.keyboard.type("a frase nova do Paulo");
    await passwordField(paulo.page, P.password.confirm).fill("");
    await passwordField(paulo.page, P.password.confirm).focus();
    await paulo.page.keyboard.type("a frase nova do Paulo");
    await paulo.page.keyboard.press("Enter");
    await heading(paulo.page, ptBR.notifications.history.title).waitFor();
    expect(new URL(paulo.page.url()).pathname).toBe("/painel/historico");
    const stored = await app.database.db.selectFrom("users").select("must_change_password").where("email", "=", PUBLISHER.email).executeTakeFirstOrThrow();
    expect(stored.must_change_password).toBe(0);
  });

  it("lets anyone change their own password from the menu, with the current one, by keyboard", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel/canais`);
    await page.getByRole("navigation").getByRole("link", { name: P.nav.changePassword }).click();
    await heading(page, P.password.title).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await passwordField(page, P.password.current).fill("não é a atual");
    await passwordField(page, P.password.new).fill("uma senha nova da Ana");
    await passwordField(page, P.password.confirm).fill("uma senha nova da Ana");
    await page.getByRole("button", { name: P.password.submit }).click();
    await expect.poll(() => helperTextOf(passwordField(page, P.password.current))).toBe(E.password_incorrect);

    await passwordField(page, P.password.current).fill(ADMIN.password);
    await passwordField(page, P.password.confirm).focus();
    await page.keyboard.press("Enter");
    await page.getByTestId("password-changed").waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // "Voltar ao Painel" goes back where the operator was, still signed in.
    await page.getByRole("link", { name: P.password.back }).click();
    await heading(page, ptBR.channels.title).waitFor();

    const old = await fetch(app.url + API_ROUTES.session, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: JSON.stringify({ email: ADMIN.email, password: ADMIN.password }),
    });
    expect(old.status).toBe(401);
  });

  it("asks by default for a new password at the first sign-in of a user created in the Painel", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel/usuarios`);
    await page.getByTestId("users-table").waitFor();
    await page.getByRole("button", { name: P.users.new }).click();
    const dialog = page.getByRole("dialog");
    const ask = dialog.getByRole("switch", { name: P.users.askNewPassword });
    expect(await ask.isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await field(dialog, P.account.name).fill(PUBLISHER.name);
    await field(dialog, P.account.email).fill(PUBLISHER.email);
    await passwordField(page, P.users.initialPassword).fill(PUBLISHER.password);
    await dialog.getByRole("button", { name: P.users.create }).click();
    await page.locator(`[data-testid="user-row"][data-email="${PUBLISHER.email}"]`).getByTestId("must-change-chip").waitFor();
    const row = await app.database.db.selectFrom("users").select("must_change_password").where("email", "=", PUBLISHER.email).executeTakeFirstOrThrow();
    expect(row.must_change_password).toBe(1);
  });
});

describe("passwords on a 390 px phone", () => {
  it("shows Alterar senha in the menu and the page without sideways scrolling, passing axe", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage(390);
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel`);
    await heading(page, P.overview.title).waitFor();
    await page.getByRole("button", { name: P.nav.openMenu }).click();
    await page.getByRole("link", { name: P.nav.changePassword }).click();
    await heading(page, P.password.title).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await axeViolations(page)).toEqual([]);
  });
});

describe("searching without accents in the Painel", () => {
  it("finds “Manutenção” in the Histórico and “João” in Assinantes when typed without accents", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    await signInContext(context, app.baseUrl, ADMIN);
    for (const title of ["Manutenção às 18h", "Promoção de pão", "MANUTENÇÃO concluída"]) {
      const res = await context.request.post(app.baseUrl + API_ROUTES.notifications, { data: { title }, headers: { origin: app.baseUrl } });
      expect(res.status()).toBe(201);
    }
    await page.goto(`${app.baseUrl}/painel/historico`);
    await page.getByTestId("history-table").waitFor();
    await page.getByRole("searchbox", { name: ptBR.notifications.history.search }).fill("manutencao");
    const rows = page.getByTestId("history-row");
    await expect.poll(() => rows.count()).toBe(2);
    expect((await rows.allTextContents()).join(" ")).not.toContain("Promoção");
    expect(new URL(page.url()).searchParams.get("busca")).toBe("manutencao");
    expect(await axeViolations(page)).toEqual([]);

    await insertPlaceholderSubscriptions(app.database, 2);
    const subscriptions = createSubscriptionsRepository(app.database);
    await subscriptions.linkPerson("https://push.example.com/0", "João.Silva", Date.now());
    await subscriptions.linkPerson("https://push.example.com/1", "maria", Date.now());
    await page.goto(`${app.baseUrl}/painel/assinantes`);
    await page.getByTestId("subscribers-table").waitFor();
    await page.getByTestId("subscribers-user-search").fill("joao");
    const subscribers = page.getByTestId("subscriber-row");
    await expect.poll(() => subscribers.count()).toBe(1);
    expect(await subscribers.first().textContent()).toContain("João.Silva");
    expect(await axeViolations(page)).toEqual([]);
  });
});
