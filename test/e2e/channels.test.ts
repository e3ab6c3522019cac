/**
 * Channels from the visitor's side: the choice made from the bell's menu and from
 * /preferencias is stored on the server against the subscription, and a notification to one channel
 * reaches only the browsers that chose it (counted by the fake push service).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { SubscribersResponse } from "../../src/shared/api/subscribers.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startFakePushService } from "../support/fake-push/fake-push-service.js";
import type { FakePushService } from "../support/fake-push/fake-push-service.js";
import { startTestServer } from "../support/server.js";
import type { TestServer } from "../support/server.js";
import { adminCall, adminContext, createChannel, FAKE_PUSH_ENV, sendNotification, visitorWithBellOn, waitForNotification } from "./support/audience.js";
import type { Visitor } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { bundleEntry } from "./support/bundle-entry.js";
import { STUB_STORAGE } from "./support/push-stub.js";

const P = ptBR.preferences;

let browser: Browser;
let fake: FakePushService;
let server: TestServer;
let admin: BrowserContext;
beforeAll(async () => {
  requireBuiltWebApp();
  [browser, fake] = await Promise.all([launchChromium(), startFakePushService({ decryptSample: 1 })]);
});
afterAll(async () => {
  await fake?.close();
  await browser?.close();
});

const visitors: Visitor[] = [];
afterEach(async () => {
  for (const visitor of visitors.splice(0)) await visitor.context.close();
  fake.reset();
});

async function storedChannels(endpointId: string): Promise<string[]> {
  const { subscribers } = await adminCall<SubscribersResponse>(admin.request, server, "GET", `${API_ROUTES.subscribers}?pageSize=200`);
  const rows = await server.database.db.selectFrom("subscriptions").select(["id", "endpoint"]).execute();
  const row = rows.find((r) => r.endpoint === fake.endpointFor(endpointId));
  if (!row) throw new Error(`no subscription for ${endpointId}`);
  return subscribers.find((s) => s.id === String(row.id))?.channels.slice().sort() ?? [];
}

// The choice and the channel filter are stored and queried in the database: both of them.
describe.each(["sqlite", "postgres"] as const)("on %s", (dialect) => {
  beforeAll(async () => {
    server = await startTestServer({ dialect, env: FAKE_PUSH_ENV });
    admin = await adminContext(browser, server);
    await createChannel(admin.request, server, "obras", "Obras", "Interdições e obras nas ruas do bairro.");
    await createChannel(admin.request, server, "saude", "Saúde", "Campanhas de vacinação e avisos dos postos.");
  });
  afterAll(async () => {
    await admin?.close();
    await server?.close();
  });

  describe("choosing channels", () => {
    it("from the bell's menu: the server stores the choice against the subscription", async () => {
      const visitor = await visitorWithBellOn(browser, server, fake, "menu");
      visitors.push(visitor);
      const { page } = visitor;

      await page.getByRole("button", { name: P.menuButton }).click();
      const menu = page.getByRole("dialog", { name: P.menuTitle });
      await menu.getByRole("checkbox", { name: "Obras" }).check();
      await menu.getByRole("button", { name: P.save }).click();
      await menu.getByText(P.saved).waitFor();

      expect(await storedChannels("menu")).toEqual(["obras"]);

      // A reload re-registers, and the registration's answer shows the stored choice again.
      await page.reload();
      await page.getByRole("button", { name: P.menuButton }).click();
      const reopened = page.getByRole("dialog", { name: P.menuTitle });
      expect(await reopened.getByRole("checkbox", { name: "Obras" }).isChecked()).toBe(true);
      expect(await reopened.getByRole("checkbox", { name: "Saúde" }).isChecked()).toBe(false);
    });

    it("on /preferencias, which offers to turn the bell on first when it is off", async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(`${server.baseUrl}/preferencias`);
        await page.getByTestId("preferences-off").getByText(P.offTitle).waitFor();
        expect(await page.getByRole("button", { name: P.turnOn }).isVisible()).toBe(true);
      } finally {
        await context.close();
      }

      const visitor = await visitorWithBellOn(browser, server, fake, "prefs", "/preferencias");
      visitors.push(visitor);
      await visitor.page.getByRole("checkbox", { name: "Saúde" }).check();
      await visitor.page.getByRole("checkbox", { name: "Obras" }).check();
      await visitor.page.getByRole("button", { name: P.save }).click();
      await visitor.page.getByTestId("channels-saved").waitFor();
      expect(await storedChannels("prefs")).toEqual(["obras", "saude"]);
    });
  });

  describe("a rotated subscription", () => {
    it("keeps its channels: the worker's renewal names the old one as `previous`", async () => {
      const visitor = await visitorWithBellOn(browser, server, fake, "before-rotation", "/preferencias");
      visitors.push(visitor);
      const { page } = visitor;
      await page.getByRole("checkbox", { name: "Saúde" }).check();
      await page.getByRole("button", { name: P.save }).click();
      await page.getByTestId("channels-saved").waitFor();

      // The worker's renewal function, run in the page on the real registration (see subscription-change.test.ts).
      await page.addScriptTag({ content: await bundleEntry("renew-entry.ts") });
      await page.evaluate(
        async ({ storage, next }) => {
          interface Renew {
            createApiClient(options: { baseUrl: string }): unknown;
            renewSubscription(event: unknown, registration: ServiceWorkerRegistration, api: unknown): Promise<void>;
          }
          const { createApiClient, renewSubscription } = (window as unknown as { sinoRenew: Renew }).sinoRenew;
          const registration = await navigator.serviceWorker.ready;
          const oldSubscription = await registration.pushManager.getSubscription();
          localStorage.setItem(storage.nextEndpoint, next);
          await renewSubscription({ oldSubscription, newSubscription: null }, registration, createApiClient({ baseUrl: location.origin }));
        },
        { storage: STUB_STORAGE, next: fake.endpointFor("after-rotation") },
      );

      expect(await storedChannels("after-rotation")).toEqual(["saude"]);
      const old = await server.database.db.selectFrom("subscriptions").select("id").where("endpoint", "=", fake.endpointFor("before-rotation")).execute();
      expect(old).toEqual([]);
    });
  });

  describe("a send to a channel", () => {
    it("reaches only the browsers that chose it; a send to everyone reaches all", async () => {
      const obras = await visitorWithBellOn(browser, server, fake, "only-obras", "/preferencias");
      const saude = await visitorWithBellOn(browser, server, fake, "only-saude", "/preferencias");
      visitors.push(obras, saude);
      for (const [visitor, name] of [
        [obras, "Obras"],
        [saude, "Saúde"],
      ] as const) {
        await visitor.page.getByRole("checkbox", { name }).check();
        await visitor.page.getByRole("button", { name: P.save }).click();
        await visitor.page.getByTestId("channels-saved").waitFor();
      }
      // Earlier tests' browsers are still subscribed (with their own choices): count only these two.
      const mine = (ids: Iterable<string>) => [...ids].filter((id) => id === "only-obras" || id === "only-saude").sort();

      const toObras = await sendNotification(admin.request, server, { title: "Rua fechada amanhã", audience: { type: "channels", channels: ["obras"] } });
      const doneObras = await waitForNotification(admin.request, server, toObras.id);
      expect(doneObras.status).toBe("completed");
      expect(mine(fake.stats().acceptedById.keys())).toEqual(["only-obras"]);

      fake.reset();
      const toAll = await sendNotification(admin.request, server, { title: "Para todos", audience: { type: "all" } });
      await waitForNotification(admin.request, server, toAll.id);
      expect(mine(fake.stats().acceptedById.keys())).toEqual(["only-obras", "only-saude"]);
    });
  });
});
