/**
 * Notifications in the dashboard, in a real Chromium against the real server:
 * schedule and cancel; send now and watch the progress reach 100% against the fake push service,
 * fed by the server's event stream with no page reload.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createDeliveryEngine } from "../../src/delivery/engine.js";
import { createPushTransport } from "../../src/push/transport.js";
import { createVapidSigner } from "../../src/push/vapid.js";
import { generateVapidKeys } from "../../src/push/vapid-keys.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { epochToWallTime } from "../../src/shared/time/zoned-time.js";
import { launchChromium } from "../support/browser.js";
import { seedSubscriptions, waitForNotification } from "../support/delivery.js";
import { startFakePushService, type FakePushService } from "../support/fake-push/fake-push-service.js";
import { loadTestTls } from "../support/fake-push/test-tls.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";
import { createRepositories } from "../../src/store/repositories.js";

const P = ptBR.dashboard;
const S = ptBR.notifications;

let browser: Browser;
let fake: FakePushService;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  fake = await startFakePushService();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
});

async function signedInPage(app: TestServer): Promise<{ context: BrowserContext; page: Page }> {
  await createFirstAdmin(app.url);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  cleanups.push(() => context.close());
  await signInContext(context, app.baseUrl, ADMIN);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
const statusChip = (page: Page, status: keyof typeof S.status) => page.getByTestId("send-status").filter({ hasText: S.status[status] });

describe("notifications in the dashboard", () => {
  it("schedules a notification, shows it as scheduled, and cancels it after confirmation", async () => {
    const app = await startTestServer();
    cleanups.push(() => app.close());
    const { page } = await signedInPage(app);
    await page.goto(`${app.baseUrl}/painel/nova`);
    await heading(page, P.compose.title).waitFor();

    await field(page, P.compose.fields.title).fill("Liquidação de amanhã");
    await page.getByRole("radio", { name: P.compose.when.later }).check();
    const tomorrow = epochToWallTime(Date.now() + 86_400_000, "America/Sao_Paulo");
    await page.locator('input[name="date"]').fill(tomorrow.date);
    await page.locator('input[name="time"]').fill("09:30");
    await page.getByRole("button", { name: P.compose.submit.later }).click();
    await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.later }).click();

    await heading(page, "Liquidação de amanhã").waitFor();
    await statusChip(page, "scheduled").waitFor();
    const [y, m, d] = tomorrow.date.split("-");
    expect(await page.getByTestId("send-when").textContent()).toContain(`${d}/${m}/${y}`);
    expect(await page.getByTestId("send-when").textContent()).toContain("09:30");
    const id = /\/painel\/envios\/(\d+)$/.exec(page.url())![1]!;

    await page.getByRole("button", { name: S.send.cancelScheduled }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText(S.send.confirmTitleScheduled).waitFor();
    // One verb throughout: the page's button, the question and the confirming button; the other keeps the send.
    expect(await dialog.getByRole("button").allTextContents()).toEqual([S.send.keepScheduled, S.send.cancelScheduled]);
    await dialog.getByRole("button", { name: S.send.cancelScheduled }).click();
    await statusChip(page, "cancelled").waitFor();
    expect(await page.getByRole("button", { name: S.send.cancelScheduled }).count()).toBe(0);
    const stored = await app.delivery.getNotification(Number(id));
    expect(stored).toMatchObject({ status: "cancelled", counts: { queued: 0 } });

    // Histórico lists it, and finds it by a word of its title.
    await page.goto(`${app.baseUrl}/painel/historico?busca=amanh%C3%A3`);
    await heading(page, S.history.title).waitFor();
    const rows = page.getByTestId("history-row");
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain("Liquidação de amanhã");
  });

  it("sends now and shows the progress reaching 100% live, fed by the server's events, with no reload", async () => {
    // No worker in the server: the notification waits until this test starts one "elsewhere" (another
    // engine on the same database), so the page surely opens before any progress, and the
    // progress it then shows comes through the stream's reading of the row, as from another process.
    const app = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_LOG_LEVEL: "warn" } });
    cleanups.push(() => app.close());
    fake.reset();
    const ids = await seedSubscriptions(app.database, fake, 120, "painel-");
    const { page } = await signedInPage(app);
    await page.goto(`${app.baseUrl}/painel/nova`);
    await heading(page, P.compose.title).waitFor();
    await field(page, P.compose.fields.title).fill("Ao vivo no Painel");
    await page.getByRole("button", { name: P.compose.submit.now }).click();
    await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.now }).click();
    await heading(page, "Ao vivo no Painel").waitFor();
    await statusChip(page, "queued").waitFor();
    expect(await page.getByTestId("send-percent").textContent()).toBe("0%");
    expect(await page.getByTestId("count-queued").textContent()).toBe("120");

    let navigations = 0;
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations += 1;
    });
    const id = Number(/\/painel\/envios\/(\d+)$/.exec(page.url())![1]);
    const transport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca });
    const worker = createDeliveryEngine({
      repositories: createRepositories(app.database),
      transport,
      vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" }),
      options: { pollMs: 20, encryptionThreads: 0, batchSize: 20, lanes: 1 },
    });
    worker.start();
    try {
      await statusChip(page, "completed").waitFor();
      expect(await page.getByTestId("send-percent").textContent()).toBe("100%");
      expect(await page.getByRole("progressbar", { name: S.send.progressLabel }).getAttribute("aria-valuenow")).toBe("100");
      expect(await page.getByTestId("count-accepted").textContent()).toBe("120");
      expect(navigations).toBe(0);
      await waitForNotification(() => app.delivery.getNotification(id));
      expect(new Set(fake.stats().acceptedById.keys())).toEqual(new Set(ids));
      expect(await page.getByRole("button", { name: S.send.cancelRunning }).count()).toBe(0);
    } finally {
      await worker.stop({ graceful: true });
      await transport.close();
    }
  });
});
