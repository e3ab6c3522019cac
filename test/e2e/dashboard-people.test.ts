/**
 * People in the Painel, in a real Chromium against the real server after a real send through the
 * fake push service: the Pessoas list and search, a person's page (devices and history), and a
 * send's recipients on Envio (outcome filter, carregar mais, the link to the person), each page
 * passing the axe check.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { seedSubscriptions, waitForNotification } from "../support/delivery.js";
import { startFakePushService, type FakePushService } from "../support/fake-push/fake-push-service.js";
import { loadTestTls } from "../support/fake-push/test-tls.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, signInContext } from "./support/dashboard-page.js";

const P = ptBR.people;

let browser: Browser;
let fake: FakePushService;
let app: TestServer;
let page: Page;
let sendId: number;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  fake = await startFakePushService();
  app = await startTestServer({
    env: { SINO_PUSH_CA_FILE: loadTestTls().caPath, SINO_WORKER_POLL_MS: "50", SINO_ENCRYPTION_THREADS: "0", SINO_PUSH_TIMEOUT_MS: "5000" },
  });
  const names = await seedSubscriptions(app.database, fake, 105);
  const ids = (await app.database.db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
  await app.database.db.updateTable("subscriptions").set({ person_id: "cliente/42", identified_at: Date.now() }).where("id", "in", [ids[0]!, ids[1]!]).execute();
  fake.setBehaviour({ id: names[2]!, action: { kind: "status", status: 400 } });
  const send = await app.delivery.createNotification({ title: "Seu pedido saiu para entrega" });
  sendId = send.id;
  await waitForNotification(() => app.delivery.getNotification(send.id));
  await app.database.db.insertInto("notification_events").values({ notification_id: send.id, subscription_id: ids[0]!, type: "clicked", created_at: Date.now() }).execute();
  await createFirstAdmin(app.url);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await signInContext(context, app.baseUrl, ADMIN);
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await fake?.close();
});

describe("people in the dashboard", () => {
  it("lists people, finds one by the start of the id, and shows their devices and history", async () => {
    await page.goto(`${app.baseUrl}/painel/pessoas`);
    await page.getByRole("heading", { level: 1, name: P.title }).waitFor();
    await page.getByTestId("person-row").first().waitFor();
    await page.getByTestId("people-search").fill("nada");
    await page.getByText(P.emptyFilteredText).waitFor();
    await page.getByTestId("people-search").fill("cliente/");
    await page.getByRole("link", { name: "cliente/42" }).click();

    await page.getByRole("heading", { level: 1, name: "cliente/42" }).waitFor();
    expect(page.url()).toContain("/painel/pessoas/cliente%2F42");
    await expect.poll(() => page.getByTestId("device-row").count()).toBe(2);
    await expect.poll(() => page.getByTestId("history-row").count()).toBe(2);
    expect(await page.getByTestId("person-history").getByRole("link", { name: "Seu pedido saiu para entrega" }).first().isVisible()).toBe(true);
    expect(await page.getByTestId("history-clicked").allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/\d{2}\/\d{2}\/\d{4}/)]));
    expect(await page.content()).not.toContain(fake.endpointFor("s0"));
    expect(await axeViolations(page)).toEqual([]);
  }, 120_000);

  it("shows a send's recipients, filters them by outcome, loads more, and links to the person", async () => {
    await page.goto(`${app.baseUrl}/painel/envios/${sendId}`);
    const card = page.getByTestId("recipients");
    await card.getByRole("heading", { name: P.recipients.title }).waitFor();
    await expect.poll(() => card.getByTestId("recipient-row").count()).toBe(100);
    await card.getByRole("button", { name: P.recipients.loadMore }).click();
    await expect.poll(() => card.getByTestId("recipient-row").count()).toBe(105);
    expect(await card.getByRole("button", { name: P.recipients.loadMore }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await card.getByTestId("recipients-filter").getByRole("combobox").click();
    await page.getByRole("option", { name: P.outcome.failed }).click();
    await expect.poll(() => card.getByTestId("recipient-row").count()).toBe(1);
    expect(await card.getByTestId("recipient-outcome").textContent()).toBe(P.outcome.failed);

    await card.getByTestId("recipients-filter").getByRole("combobox").click();
    await page.getByRole("option", { name: P.outcome.accepted }).click();
    await expect.poll(() => card.getByTestId("recipient-row").count()).toBe(100);
    await card.getByRole("link", { name: "cliente/42" }).first().click();
    await page.getByRole("heading", { level: 1, name: "cliente/42" }).waitFor();
  }, 120_000);
});
