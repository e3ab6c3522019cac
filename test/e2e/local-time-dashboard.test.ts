/**
 * Delivery in the subscriber's local time, in the Painel (real Chromium, real server, a worker
 * "elsewhere" on the same database with its clock at 23h in São Paulo): a send's page shows how
 * many pushes wait for their window and when the next go, the recipients waiting, with no axe
 * violation in light or dark mode; at 08:00 there the page follows the rest live to completion.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { createDeliveryEngine } from "../../src/delivery/engine.js";
import { createLocalTimeGate } from "../../src/delivery/gates/local-time-gate.js";
import { createPushTransport } from "../../src/push/transport.js";
import { createVapidSigner } from "../../src/push/vapid.js";
import { generateVapidKeys } from "../../src/push/vapid-keys.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { createRepositories } from "../../src/store/repositories.js";
import { launchChromium } from "../support/browser.js";
import { seedSubscriptions, waitForNotification } from "../support/delivery.js";
import { startFakePushService, type FakePushService } from "../support/fake-push/fake-push-service.js";
import { loadTestTls } from "../support/fake-push/test-tls.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, signInContext } from "./support/dashboard-page.js";

const L = ptBR["local-time"];
const S = ptBR.notifications;
/** 23:00 in São Paulo; 08:00 there is nine hours later. */
const SP_23H = Date.UTC(2026, 10, 27, 2, 0, 0);
const SP_8H = Date.UTC(2026, 10, 27, 11, 0, 0);

let browser: Browser;
let fake: FakePushService;
let app: TestServer;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  fake = await startFakePushService();
  // No worker in the server: the one below, with its own clock, does the sending.
  app = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  await createFirstAdmin(app.url);
});
afterAll(async () => {
  await app?.close();
  await browser?.close();
  await fake?.close();
});

describe("local time in the Painel", () => {
  it("shows what waits and when it goes, then follows it live to completion", async () => {
    const ids = await seedSubscriptions(app.database, fake, 6, "fuso-");
    const singapore = ids.slice(0, 2).map((id) => fake.endpointFor(id));
    await app.database.db.updateTable("subscriptions").set({ time_zone: "Asia/Singapore" }).where("endpoint", "in", singapore).execute();

    let base = SP_23H;
    let since = Date.now();
    const clock = () => base + (Date.now() - since);
    const repositories = createRepositories(app.database);
    const transport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca });
    const worker = createDeliveryEngine({
      repositories,
      transport,
      vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" }),
      clock,
      options: { pollMs: 20, encryptionThreads: 0, batchSize: 3, lanes: 1 },
      localTime: createLocalTimeGate({ defaultTimeZone: "America/Sao_Paulo", sites: () => repositories.sites.listPlain(), clock }),
    });
    // Made by the worker's engine, so that its TTL counts from 23h São Paulo too.
    const created = await worker.createNotification({ title: "Promoção noturna", ttlSeconds: 24 * 3600 });
    worker.start();
    try {
      await waitForNotification(() => app.delivery.getNotification(created.id), (s) => s.counts.accepted === 2 && s.counts.waiting === 4);
      for (const colorScheme of ["light", "dark"] as const) {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
        try {
          await signInContext(context, app.baseUrl, ADMIN);
          const page = await context.newPage();
          page.setDefaultTimeout(15_000);
          await page.goto(`${app.baseUrl}/painel/envios/${created.id}`);
          await page.getByRole("heading", { level: 2, name: L.card.title }).waitFor();
          expect(await page.getByTestId("local-time-waiting").textContent()).toBe("4 assinantes aguardam o horário de envio no fuso deles.");
          expect(await page.getByTestId("local-time-next").textContent()).toBe("Os próximos saem em 27/11/2026, 08:00 (fuso America/Sao_Paulo).");
          expect(await page.getByTestId("count-waiting").textContent()).toBe("4");
          await page.getByTestId("recipient-outcome").filter({ hasText: L.outcome.waiting }).first().waitFor();
          expect(await page.getByTestId("recipient-outcome").filter({ hasText: L.outcome.waiting }).count()).toBe(4);
          await page.waitForFunction(() => document.querySelector(".MuiSkeleton-root, .MuiCircularProgress-root") === null);
          expect(await axeViolations(page)).toEqual([]);

          if (colorScheme === "dark") {
            // 08:00 in São Paulo: the rest go, and the open page follows without a reload.
            base = SP_8H;
            since = Date.now();
            worker.wake();
            await page.getByTestId("send-status").filter({ hasText: S.status.completed }).waitFor();
            expect(await page.getByTestId("count-accepted").textContent()).toBe("6");
            expect(await page.getByTestId("send-local-time").count()).toBe(0);
          }
        } finally {
          await context.close();
        }
      }
      expect(new Set(fake.stats().acceptedById.keys())).toEqual(new Set(ids));
    } finally {
      await worker.stop({ graceful: true });
      await transport.close();
    }
  }, 120_000);
});
