/**
 * Tags in the Painel, in a real Chromium against the real server: a person's trusted tags and an
 * admin editing them in the dialog, each device's visitor tags marked "definida pela página", both
 * kinds on the subscribers list, and the Sites switch for visitor tags; each view passes axe.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { createTagsRepository } from "../../src/store/tags-repository.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, signInContext } from "./support/dashboard-page.js";

const T = ptBR.people.tags;

let browser: Browser;
let app: TestServer;
let page: Page;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  app = await startTestServer();
  const now = Date.now();
  const inserted = await app.database.db
    .insertInto("subscriptions")
    .values({
      endpoint: "https://fcm.googleapis.com/fcm/send/etiquetas-1",
      p256dh: "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM",
      auth: "tBHItJI5svbpez7KI4CCXg",
      user_agent: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
      created_at: now,
      updated_at: now,
      last_seen_at: now,
      person_id: "cliente/42",
      identified_at: now,
      time_zone: "America/Sao_Paulo",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const tags = createTagsRepository(app.database);
  await tags.replacePersonTags("cliente/42", { plano: "premium", idade: 30, vip: true }, now);
  await app.database.db
    .insertInto("subscription_tags")
    .values({ subscription_id: Number(inserted.id), key: "tema", value: "escuro", num_value: null, time_value: null, updated_at: now })
    .execute();
  await createFirstAdmin(app.url);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await signInContext(context, app.baseUrl, ADMIN);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function personTags(): Promise<string[]> {
  const rows = await app.database.db.selectFrom("person_tags").select(["key", "value"]).where("person_id", "=", "cliente/42").orderBy("key").execute();
  return rows.map((r) => (r.value === null ? r.key : `${r.key}=${r.value}`));
}

describe("tags in the dashboard", () => {
  it("shows a person's trusted tags and their device's visitor tags apart, and lets an admin edit the trusted ones", async () => {
    await page.goto(`${app.baseUrl}/painel/pessoas/${encodeURIComponent("cliente/42")}`);
    await page.getByRole("heading", { level: 2, name: T.trustedTitle }).waitFor();
    const trusted = page.getByTestId("person-tags");
    await expect.poll(() => trusted.getByTestId("tag-chip").allTextContents()).toEqual(["idade: 30", "plano: premium", "vip"]);
    expect(await page.getByTestId("device-visitor-tags").getByTestId("tag-chip").allTextContents()).toEqual([T.visitorChip.replace("{{tag}}", "tema: escuro")]);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: T.edit }).click();
    const dialog = page.getByRole("dialog", { name: T.dialogTitle.replace("{{userId}}", "cliente/42") });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: T.removeNamed.replace("{{tag}}", "vip") }).click();
    await dialog.getByRole("textbox", { name: T.key }).fill("Bairro");
    await dialog.getByRole("button", { name: T.add }).click();
    await dialog.getByText(ptBR.errors.tag_key_invalid).waitFor();
    await dialog.getByRole("textbox", { name: T.key }).fill("bairro");
    await dialog.getByRole("textbox", { name: T.value }).fill("Cambuí");
    await dialog.getByRole("button", { name: T.add }).click();
    await dialog.getByRole("textbox", { name: T.key }).fill("optin");
    await dialog.getByRole("button", { name: T.add }).click();
    await dialog.getByRole("button", { name: T.save }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => trusted.getByTestId("tag-chip").allTextContents()).toEqual(["bairro: Cambuí", "idade: 30", "optin", "plano: premium"]);
    expect(await personTags()).toEqual(["bairro=Cambuí", "idade=30", "optin", "plano=premium"]);
    // Visitor tags are the page's: editing trusted ones leaves them alone.
    expect(await page.getByTestId("device-visitor-tags").getByTestId("tag-chip").count()).toBe(1);
  }, 120_000);

  it("shows both kinds of tags on the subscribers list", async () => {
    await page.goto(`${app.baseUrl}/painel/assinantes`);
    await page.getByTestId("subscriber-trusted-tags").first().waitFor();
    expect(await page.getByTestId("subscriber-trusted-tags").getByTestId("tag-chip").allTextContents()).toContain("plano: premium");
    expect(await page.getByTestId("subscriber-visitor-tags").getByTestId("tag-chip").allTextContents()).toEqual([T.visitorChip.replace("{{tag}}", "tema: escuro")]);
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it("switches a site's visitor tags off and on", async () => {
    await page.goto(`${app.baseUrl}/painel/sites`);
    // Sino's own site, the only one here (its origin is SINO_PUBLIC_URL's).
    const toggle = page.getByRole("switch", { name: ptBR.sites.visitorTags.switchNamed.replace(" {{origin}}", ""), exact: false });
    await toggle.waitFor();
    expect(await toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await expect.poll(async () => Number((await app.database.db.selectFrom("sites").select("visitor_tags").where("built_in", "=", 1).executeTakeFirstOrThrow()).visitor_tags)).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
  }, 120_000);
});
