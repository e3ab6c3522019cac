/**
 * The dashboard in a real Chromium against the real server: set-up of
 * the first admin, sign-in and sign-out, compose with validation errors beside their fields, API
 * tokens (secret shown once, revoked), users and roles. Nothing is stubbed: the built app, the
 * HTTP API, the session cookie and the database are the real ones.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer } from "../support/server.js";
import type { TestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { settledBell } from "./support/bell-page.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";
import { ADMIN, PUBLISHER, createFirstAdmin, field, helperTextOf, navLabels, signInContext } from "./support/dashboard-page.js";

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

async function newPage(options: { width?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 860 } });
  cleanups.push(() => context.close());
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

describe("the dashboard", () => {
  it("sends the first visitor to the one-time set-up, creates the first admin and signs them in", async () => {
    const app = await server();
    const { page } = await newPage();

    await page.goto(`${app.baseUrl}/painel`);
    await heading(page, P.setup.title).waitFor();
    expect(new URL(page.url()).pathname).toBe("/painel/configuracao");

    // A short password is refused beside the password field, before any request.
    await field(page, P.account.name).fill(ADMIN.name);
    await field(page, P.account.email).fill(ADMIN.email);
    await field(page, P.account.password).fill("curta");
    await field(page, P.setup.confirm).fill("curta");
    await page.getByRole("button", { name: P.setup.submit }).click();
    expect(await helperTextOf(field(page, P.account.password))).toBe(E.password_too_short);
    expect(await app.database.db.selectFrom("users").select("id").execute()).toEqual([]);

    await field(page, P.account.password).fill(ADMIN.password);
    await field(page, P.setup.confirm).fill(ADMIN.password);
    await page.getByRole("button", { name: P.setup.submit }).click();

    await heading(page, P.overview.title).waitFor();
    expect(new URL(page.url()).pathname).toBe("/painel");
    expect(await page.getByTestId("current-user").first().textContent()).toBe(ADMIN.name);
    const rows = await app.database.db.selectFrom("users").select(["email", "role"]).execute();
    expect(rows).toEqual([{ email: ADMIN.email, role: "admin" }]);

    // The set-up page is gone for good: it now leads to sign-in, which leads a signed-in admin home.
    await page.goto(`${app.baseUrl}/painel/configuracao`);
    await heading(page, P.overview.title).waitFor();
    expect(new URL(page.url()).pathname).toBe("/painel");
  });

  it("refuses a wrong password in pt-BR, signs in, returns to the page asked for, and signs out for good", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();

    await page.goto(`${app.baseUrl}/painel/tokens`);
    await heading(page, P.signIn.title).waitFor();

    await field(page, P.account.email).fill(ADMIN.email);
    await field(page, P.account.password).fill("não é esta");
    await page.getByRole("button", { name: P.signIn.submit, exact: true }).click();
    await expect.poll(() => page.getByTestId("sign-in-error").textContent()).toBe(E.invalid_credentials);

    await field(page, P.account.password).fill(ADMIN.password);
    await page.getByRole("button", { name: P.signIn.submit, exact: true }).click();
    await heading(page, P.tokens.title).waitFor();
    expect(new URL(page.url()).pathname).toBe("/painel/tokens");

    const cookieBefore = (await context.cookies()).find((cookie) => cookie.name === "sino_session");
    expect(cookieBefore?.httpOnly).toBe(true);

    await page.getByRole("navigation").getByRole("button", { name: P.nav.signOut }).click();
    await heading(page, P.signIn.title).waitFor();
    // The old session is dead on the server, not just forgotten by the browser.
    const stale = await fetch(app.url + API_ROUTES.session, { headers: { cookie: `sino_session=${cookieBefore?.value}` } });
    expect(stale.status).toBe(401);
    await page.goto(`${app.baseUrl}/painel`);
    await heading(page, P.signIn.title).waitFor();
  });

  it("sends an operator whose session ended elsewhere to sign-in, and back to the page afterwards", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel/tokens`);
    await page.getByRole("heading", { name: P.tokens.emptyTitle }).waitFor();

    // Signed out behind the page's back (another tab): the next list load gets 401.
    expect((await context.request.delete(app.baseUrl + API_ROUTES.session, { headers: { origin: app.baseUrl } })).status()).toBe(204);
    await page.getByRole("navigation").getByRole("link", { name: P.nav.users }).click();
    await heading(page, P.signIn.title).waitFor();

    await field(page, P.account.email).fill(ADMIN.email);
    await field(page, P.account.password).fill(ADMIN.password);
    await page.getByRole("button", { name: P.signIn.submit, exact: true }).click();
    await heading(page, P.users.title).waitFor();
    expect(new URL(page.url()).pathname).toBe("/painel/usuarios");
  });

  it("shows compose errors beside their fields and a live preview, then follows the send on its Envio page", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel/nova`);
    await heading(page, P.compose.title).waitFor();

    const title = field(page, P.compose.fields.title);
    const link = field(page, P.compose.fields.url);
    // Submitting an empty form: the title's error appears beside the title, and it gets the focus.
    await page.getByRole("button", { name: P.compose.submit.now }).click();
    expect(await helperTextOf(title)).toBe(P.compose.errors.titleRequired);
    expect(await title.evaluate((el) => el === document.activeElement)).toBe(true);

    await title.fill("x".repeat(81));
    expect(await helperTextOf(title)).toBe(P.compose.errors.titleTooLong.replace("{{max}}", "80"));
    await title.fill("Promoção de inverno");
    expect(await helperTextOf(title)).toBe("61 caracteres restantes");

    await link.fill("http://exemplo.com/promo");
    await link.blur();
    expect(await helperTextOf(link)).toBe(P.compose.errors.urlInvalid);
    await link.fill("/avisos");
    expect(await helperTextOf(link)).toBe(P.compose.hints.url);

    await field(page, P.compose.fields.body).fill("Até 50% de desconto só neste fim de semana.");
    const preview = page.getByTestId("notification-preview");
    expect(await preview.getByTestId("preview-title").textContent()).toBe("Promoção de inverno");
    expect(await preview.getByTestId("preview-body").textContent()).toBe("Até 50% de desconto só neste fim de semana.");

    // The bell is off in this browser: "Enviar para mim" is disabled and says why.
    const sendToMe = page.getByRole("button", { name: P.compose.sendToMe.button });
    expect(await sendToMe.isDisabled()).toBe(true);
    expect(await page.locator("#send-to-me-hint").textContent()).toBe(P.compose.sendToMe.bellOff);

    // A schedule in the past is refused beside the time.
    await page.getByRole("radio", { name: P.compose.when.later }).check();
    await page.locator('input[name="date"]').fill("2020-01-01");
    await page.locator('input[name="time"]').fill("10:00");
    await page.getByRole("button", { name: P.compose.submit.later }).click();
    expect(await helperTextOf(page.locator('input[name="time"]'))).toBe(P.compose.errors.scheduleInPast);

    // Sent now: the page moves to the notification's Envio page (nobody subscribes here, so it is done at once).
    await page.getByRole("radio", { name: P.compose.when.now }).check();
    await page.getByRole("button", { name: P.compose.submit.now }).click();
    await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.now }).click();
    await heading(page, "Promoção de inverno").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/painel\/envios\/\d+$/);
    // Nobody to receive it: its own state and wording, never a green "Concluído 100%".
    await page.getByTestId("send-status").filter({ hasText: ptBR.notifications.status.no_recipients }).waitFor();
    expect(await page.getByText(ptBR.notifications.send.noRecipients).count()).toBe(1);
    expect(await page.getByTestId("send-percent").count()).toBe(0);
  });

  it("enables \"Enviar para mim\" once this browser's bell is on, and shows the server's answer to it", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    // The browser's push service is stubbed (Chromium's never settles offline); the bell, worker and API are real.
    await context.grantPermissions(["notifications"], { origin: app.baseUrl });
    await installPushStub(context, { endpoint: testEndpoint(), keys: makeSubscriptionKeys(), mode: "ok" });
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel/nova`);
    await heading(page, P.compose.title).waitFor();

    const sendToMe = page.getByRole("button", { name: P.compose.sendToMe.button });
    expect(await sendToMe.isDisabled()).toBe(true);
    await (await settledBell(page, "off")).click();
    await settledBell(page, "on");
    expect(await sendToMe.isDisabled()).toBe(false);
    expect(await page.locator("#send-to-me-hint").textContent()).toBe(P.compose.sendToMe.ready);

    // The same client rules apply to a test send.
    await sendToMe.click();
    expect(await helperTextOf(field(page, P.compose.fields.title))).toBe(P.compose.errors.titleRequired);
    await field(page, P.compose.fields.title).fill("Teste");
    await sendToMe.click();
    const outcome = page.getByTestId("compose-outcome");
    await outcome.waitFor();
    expect(await outcome.textContent()).toBe(P.compose.result.testSent);
    // The server made a notification to this browser's subscription alone.
    const sends = await app.database.db.selectFrom("notifications").select(["title", "audience", "queued"]).execute();
    expect(sends).toEqual([{ title: "Teste", audience: expect.stringContaining('"kind":"endpoint"'), queued: 1 }]);
  });

  it("creates an API token, shows its secret once with a copy button, and revokes it after confirmation", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage();
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel/tokens`);
    await page.getByRole("heading", { name: P.tokens.emptyTitle }).waitFor();

    await page.getByRole("button", { name: P.tokens.new }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: P.tokens.create }).click();
    expect(await helperTextOf(field(dialog, P.tokens.name))).toBe(E.name_required);
    await field(dialog, P.tokens.name).fill("Backup noturno");
    await dialog.getByRole("combobox").click();
    await page.getByRole("option", { name: P.tokens.scopes.admin }).click();
    await dialog.getByRole("button", { name: P.tokens.create }).click();

    const secretInput = dialog.getByTestId("token-secret");
    await secretInput.waitFor();
    const secret = await secretInput.inputValue();
    expect(secret).toMatch(/^sino_/);
    expect(await dialog.getByText(P.tokens.onceTitle).isVisible()).toBe(true);
    expect(await dialog.getByRole("button", { name: P.tokens.copy }).isVisible()).toBe(true);
    // The secret really works, as an admin-scoped token.
    expect((await fetch(app.url + API_ROUTES.tokens, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(200);

    await dialog.getByRole("button", { name: P.tokens.done }).click();
    const row = page.getByTestId("token-row").filter({ hasText: "Backup noturno" });
    expect(await row.getByTestId("token-status").textContent()).toBe(P.tokens.status.active);
    expect(await row.textContent()).toContain(P.tokens.scopes.admin);

    // Shown once: after a reload the page holds no trace of it.
    await page.reload();
    await row.waitFor();
    expect(await page.content()).not.toContain(secret);

    await row.getByRole("button", { name: P.tokens.revoke }).click();
    const confirm = page.getByRole("dialog");
    expect(await confirm.getByRole("heading").textContent()).toBe(P.tokens.revokeTitle.replace("{{name}}", "Backup noturno"));
    await confirm.getByRole("button", { name: P.tokens.revoke }).click();
    await expect.poll(() => row.getByTestId("token-status").textContent()).toBe(P.tokens.status.revoked);
    expect((await fetch(app.url + API_ROUTES.tokens, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401);
  });

  it("lets an admin add a publisher and remove users after confirmation; a publisher sees neither Usuários nor Tokens de API", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const admin = await newPage();
    await signInContext(admin.context, app.baseUrl, ADMIN);
    await admin.page.goto(`${app.baseUrl}/painel/usuarios`);
    const page = admin.page;
    await page.getByTestId("users-table").waitFor();

    await page.getByRole("button", { name: P.users.new }).click();
    const dialog = page.getByRole("dialog");
    await field(dialog, P.account.name).fill(PUBLISHER.name);
    await field(dialog, P.account.email).fill(ADMIN.email);
    await field(dialog, P.users.initialPassword).fill(PUBLISHER.password);
    // The publisher signs in below with this password and uses it: no forced change this time.
    await dialog.getByRole("switch", { name: P.users.askNewPassword }).click();
    await dialog.getByRole("button", { name: P.users.create }).click();
    // The server's refusal (e-mail already used) lands beside the e-mail field.
    await expect.poll(() => helperTextOf(field(dialog, P.account.email))).toBe(E.email_taken);
    await field(dialog, P.account.email).fill(PUBLISHER.email);
    await dialog.getByRole("button", { name: P.users.create }).click();
    const row = page.locator(`[data-testid="user-row"][data-email="${PUBLISHER.email}"]`);
    await row.waitFor();
    expect(await row.getByRole("combobox").textContent()).toBe(P.roles.publisher);

    // The publisher signs in elsewhere: no admin pages in the navigation, and a direct visit says why.
    const publisher = await newPage();
    await signInContext(publisher.context, app.baseUrl, PUBLISHER);
    await publisher.page.goto(`${app.baseUrl}/painel`);
    await heading(publisher.page, P.overview.title).waitFor();
    const labels = await navLabels(publisher.page);
    expect(labels).toEqual([P.nav.overview, P.nav.compose, P.nav.history, ptBR.templates.nav, P.nav.channels, P.nav.sites, P.nav.changePassword]);
    await publisher.page.goto(`${app.baseUrl}/painel/usuarios`);
    await publisher.page.getByRole("heading", { name: P.session.adminOnlyTitle }).waitFor();
    expect(await publisher.page.getByTestId("users-table").count()).toBe(0);

    // Changing a role takes effect at once on the server.
    await row.getByRole("combobox").click();
    await page.getByRole("option", { name: P.roles.admin }).click();
    await expect.poll(() => page.getByTestId("notice").textContent()).toBe(
      P.users.roleChanged.replace("{{name}}", PUBLISHER.name).replace("{{role}}", P.roles.admin),
    );
    expect(await app.database.db.selectFrom("users").select("role").where("email", "=", PUBLISHER.email).executeTakeFirst()).toEqual({ role: "admin" });

    // Removing asks first; cancelling keeps the user.
    await row.getByRole("button", { name: P.users.removeNamed.replace("{{name}}", PUBLISHER.name) }).click();
    await page.getByRole("dialog").getByRole("button", { name: P.common.cancel }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect(await row.count()).toBe(1);
    await row.getByRole("button", { name: P.users.removeNamed.replace("{{name}}", PUBLISHER.name) }).click();
    await page.getByRole("dialog").getByRole("button", { name: P.users.remove, exact: true }).click();
    await row.waitFor({ state: "detached" });
    expect(await app.database.db.selectFrom("users").select("email").execute()).toEqual([{ email: ADMIN.email }]);
    // Removed means signed out everywhere.
    await publisher.page.reload();
    await heading(publisher.page, P.signIn.title).waitFor();
  });

  it("collapses the navigation into a menu on a 390 px phone", async () => {
    const app = await server();
    await createFirstAdmin(app.url);
    const { page, context } = await newPage({ width: 390 });
    await signInContext(context, app.baseUrl, ADMIN);
    await page.goto(`${app.baseUrl}/painel`);
    await heading(page, P.overview.title).waitFor();

    expect(await navLabels(page)).toEqual([]);
    await page.getByRole("button", { name: P.nav.openMenu }).click();
    await page.getByRole("link", { name: P.nav.compose }).click();
    await heading(page, P.compose.title).waitFor();
    // No sideways scrolling on a phone, lists included.
    const pageWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
    expect(await pageWidth()).toBeLessThanOrEqual(390);
    await context.request.post(app.baseUrl + API_ROUTES.tokens, { data: { name: "Backup noturno de todos os dias", scope: "publish" }, headers: { origin: app.baseUrl } });
    for (const path of ["/painel/tokens", "/painel/usuarios"]) {
      await page.goto(app.baseUrl + path);
      await page.getByRole("table").waitFor();
      expect(await pageWidth()).toBeLessThanOrEqual(390);
    }
  });
});
