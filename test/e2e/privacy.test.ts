/**
 * LGPD in a real Chromium (issue 18): the subscriber's "Meus dados" and "Apagar meus dados" in the
 * embedded bell's panel (on another site) and on Sino's own /preferencias, and the Painel's
 * confirmation that says what an erasure removes; each panel and dialog passes axe. The server,
 * its database and the service workers are real; the push service inside the page is stubbed
 * (TESTING.md §2). Storage behaviour is tested on both databases in src/store/personal-data.test.ts.
 */
import { readFile } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { CONSENT_CATALOGUE_VERSION } from "../../src/client/index.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startFakePushService, type FakePushService } from "../support/fake-push/fake-push-service.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { adminContext, FAKE_PUSH_ENV, visitorWithBellOn } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { adminOf, registerSite, startEmbedSite, startSinoForEmbed, type EmbedSite } from "./support/embed-site.js";
import { settledEmbedBell } from "./support/embed-page.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";

const E = ptBR.embed.privacy;
const PAINEL = ptBR.privacy.painel;

let browser: Browser;
beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

async function countRows(server: TestServer, table: "subscriptions" | "consent_records" | "data_erasures"): Promise<number> {
  const row = await server.database.db.selectFrom(table).select((eb) => eb.fn.countAll<string | number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Clicks `trigger` and reads the JSON file the page offers. */
async function downloadedJson(page: Page, trigger: () => Promise<void>): Promise<{ fileName: string; body: Record<string, unknown> }> {
  const [download] = await Promise.all([page.waitForEvent("download"), trigger()]);
  const path = await download.path();
  return { fileName: download.suggestedFilename(), body: JSON.parse(await readFile(path, "utf8")) as Record<string, unknown> };
}

describe("Sino's own pages and the Painel", () => {
  let fake: FakePushService;
  let server: TestServer;
  let admin: BrowserContext;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    fake = await startFakePushService();
    server = await startTestServer({ env: FAKE_PUSH_ENV });
    admin = await adminContext(browser, server);
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await admin?.close();
    await server?.close();
    await fake?.close();
  });

  it("/preferencias: the bell's yes is recorded as consent, 'Meus dados' downloads it, 'Apagar meus dados' asks, erases and turns the bell off", async () => {
    const visitor = await visitorWithBellOn(browser, server, fake, "prefs-privacy", "/preferencias");
    contexts.push(visitor.context);
    const { page } = visitor;
    const consent = await server.database.db.selectFrom("consent_records").selectAll().executeTakeFirstOrThrow();
    expect([consent.source, consent.text, consent.catalogue_version, consent.page_origin]).toEqual(["bell", ptBR.bell.enable, CONSENT_CATALOGUE_VERSION, server.baseUrl]);

    const section = page.getByTestId("privacy-section");
    await section.getByRole("heading", { name: E.title }).waitFor();
    // The bell's tooltip, still open under the pointer that clicked it, is not this test's.
    await page.mouse.move(0, 0);
    await expect.poll(() => page.getByRole("tooltip").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    const { fileName, body } = await downloadedJson(page, () => section.getByRole("button", { name: E.export, exact: true }).click());
    expect(fileName).toMatch(/^sino-meus-dados-\d{4}-\d{2}-\d{2}\.json$/);
    expect(body).toMatchObject({ data: { subscription: { endpoint: visitor.endpoint }, consent: { source: "bell", text: ptBR.bell.enable } } });
    expect(JSON.stringify(body)).not.toContain(visitor.auth);
    await section.getByText(E.exported).waitFor();

    await section.getByRole("button", { name: E.erase, exact: true }).click();
    const dialog = page.getByRole("dialog", { name: E.erase });
    await dialog.getByText(E.eraseQuestion).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // "Cancelar" has the focus: Enter never erases by accident.
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    expect(await countRows(server, "subscriptions")).toBe(1);

    await section.getByRole("button", { name: E.erase, exact: true }).click();
    await dialog.getByRole("button", { name: E.eraseConfirm }).click();
    await section.getByText(E.erased).waitFor();
    await page.getByTestId("preferences-off").waitFor();
    expect(await countRows(server, "subscriptions")).toBe(0);
    expect(await countRows(server, "consent_records")).toBe(0);
    expect(await countRows(server, "data_erasures")).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
  }, 90_000);

  it("Painel → Pessoa: the confirmation says what will go, and erasing removes it", async () => {
    const visitor = await visitorWithBellOn(browser, server, fake, "painel-privacy");
    contexts.push(visitor.context);
    const row = await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", visitor.endpoint).executeTakeFirstOrThrow();
    await server.database.db.updateTable("subscriptions").set({ person_id: "cliente/7", identified_at: Date.now() }).where("id", "=", row.id).execute();

    const page = await admin.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.baseUrl}/painel/pessoas/${encodeURIComponent("cliente/7")}`);
    const card = page.getByTestId("person-privacy");
    await card.getByRole("heading", { name: PAINEL.title }).waitFor();
    const { body } = await downloadedJson(page, () => card.getByRole("button", { name: PAINEL.export }).click());
    expect(body).toMatchObject({ counts: { subscriptions: 1, consentRecords: 1 }, data: { userId: "cliente/7" } });

    await card.getByRole("button", { name: PAINEL.erase }).click();
    const dialog = page.getByRole("dialog", { name: PAINEL.confirmTitle.replace("{{userId}}", "cliente/7") });
    await dialog.waitFor();
    expect(await dialog.getByTestId("person-erase-counts").getByRole("listitem").allTextContents()).toEqual(["1 inscrição (navegador)", "1 registro de consentimento"]);
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: PAINEL.confirm }).click();
    await card.getByText(PAINEL.erased.replace("{{userId}}", "cliente/7")).waitFor();
    expect(await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", visitor.endpoint).executeTakeFirst()).toBeUndefined();
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 90_000);
});

describe("the embedded bell on another site", () => {
  let sino: TestServer;
  let site: EmbedSite;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    sino = await startSinoForEmbed({});
    const admin = await adminOf(sino);
    site = await startEmbedSite({ sinoUrl: sino.baseUrl, siteKey: null });
    site.setSiteKey((await registerSite(admin, site.origin)).key);
  });
  afterAll(async () => {
    await context?.close();
    await site?.close();
    await sino?.close();
  });

  it("records the consent with the site's page origin, downloads 'Meus dados', and 'Apagar meus dados' asks in place, erases and turns the bell off", async () => {
    context = await browser.newContext();
    await context.grantPermissions(["notifications"], { origin: site.origin });
    const keys = makeSubscriptionKeys();
    const endpoint = testEndpoint();
    await installPushStub(context, { endpoint, keys, mode: "ok" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(site.pageUrl());
    await (await settledEmbedBell(page, "off")).click();
    await settledEmbedBell(page, "on");
    const consent = await sino.database.db.selectFrom("consent_records").selectAll().executeTakeFirstOrThrow();
    expect([consent.source, consent.page_origin, consent.catalogue_version]).toEqual(["bell", site.origin, CONSENT_CATALOGUE_VERSION]);

    await page.getByRole("button", { name: ptBR.embed.channels.open }).click();
    const dialog = page.getByRole("dialog", { name: ptBR.embed.channels.title });
    const section = dialog.getByRole("region", { name: E.title });
    await section.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    const { body } = await downloadedJson(page, () => section.getByRole("button", { name: E.export, exact: true }).click());
    expect(body).toMatchObject({ data: { subscription: { endpoint, site: { origin: site.origin } }, consent: { pageOrigin: site.origin } } });
    expect(JSON.stringify(body)).not.toContain(keys.auth);

    await section.getByRole("button", { name: E.erase, exact: true }).click();
    const question = section.getByRole("group", { name: E.eraseQuestion });
    await question.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await question.getByRole("button", { name: E.eraseCancel }).click();
    await question.waitFor({ state: "hidden" });
    expect(await countRows(sino, "subscriptions")).toBe(1);

    await section.getByRole("button", { name: E.erase, exact: true }).click();
    await question.getByRole("button", { name: E.eraseConfirm }).click();
    await section.getByText(E.erased).waitFor();
    expect(await countRows(sino, "subscriptions")).toBe(0);
    expect(await countRows(sino, "consent_records")).toBe(0);
    await page.keyboard.press("Escape");
    await settledEmbedBell(page, "off");
    expect(await axeViolations(page)).toEqual([]);
  }, 90_000);
});
