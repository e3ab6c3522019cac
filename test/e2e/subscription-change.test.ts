/**
 * `pushsubscriptionchange`: the worker subscribes again and moves the server's row to the new
 * endpoint. Browsers cannot be made to fire the event on demand (Chromium never does; Firefox
 * only when its push server drops a channel), so the worker's renewal function is bundled
 * on the fly and run in a real page, on the real registration and the real API, with the push
 * service stubbed as in the bell tests.
 */
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { build } from "vite";
import type { Browser } from "playwright-core";
import { launchChromium } from "../support/browser.js";
import { startTestServer } from "../support/server.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { settledBell } from "./support/bell-page.js";
import { installPushStub, makeSubscriptionKeys, STUB_STORAGE, testEndpoint } from "./support/push-stub.js";

type TestServer = Awaited<ReturnType<typeof startTestServer>>;

async function bundleRenewal(): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "warn",
    build: {
      write: false,
      minify: false,
      lib: { entry: fileURLToPath(new URL("./support/renew-entry.ts", import.meta.url)), formats: ["iife"], name: "sinoRenewBundle" },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!("output" in output)) continue;
    const chunk = output.output.find((item) => item.type === "chunk");
    if (chunk?.type === "chunk") return chunk.code;
  }
  throw new Error("no bundle");
}

let browser: Browser;
let server: TestServer;
let renewal: string;
beforeAll(async () => {
  requireBuiltWebApp();
  [browser, server, renewal] = await Promise.all([launchChromium(), startTestServer({ dialect: "sqlite" }), bundleRenewal()]);
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

describe("renewing a subscription the browser rotated", () => {
  it.each([
    ["with the old subscription's key", true],
    ["with the key from GET /api/v1/config when the browser forgot it", false],
  ])("subscribes again %s, registers the new endpoint and removes the old one", async (_name, keepOldKey) => {
    // The renewal bundle is injected as an inline script, which Sino's CSP refuses; the CSP itself
    // is checked by security-headers.test.ts.
    const context = await browser.newContext({ bypassCSP: true });
    try {
      await context.grantPermissions(["notifications"], { origin: server.baseUrl });
      const keys = makeSubscriptionKeys();
      const oldEndpoint = testEndpoint();
      const newEndpoint = testEndpoint();
      await installPushStub(context, { endpoint: oldEndpoint, keys });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(server.baseUrl);
      await (await settledBell(page, "off")).click();
      await settledBell(page, "on");
      await page.addScriptTag({ content: renewal });

      const used = await page.evaluate(
        async ({ storage, next, keepKey }) => {
          interface Renew {
            createApiClient(options: { baseUrl: string }): unknown;
            renewSubscription(event: unknown, registration: ServiceWorkerRegistration, api: unknown): Promise<void>;
          }
          const { createApiClient, renewSubscription } = (window as unknown as { sinoRenew: Renew }).sinoRenew;
          const registration = await navigator.serviceWorker.ready;
          const current = await registration.pushManager.getSubscription();
          if (!current) throw new Error("no subscription");
          // What the browser hands the worker: the old subscription, already dead, and no new one.
          const oldSubscription = keepKey
            ? current
            : Object.create(current, { options: { value: { userVisibleOnly: true, applicationServerKey: null } } });
          localStorage.setItem(storage.nextEndpoint, next);
          await renewSubscription({ oldSubscription, newSubscription: null }, registration, createApiClient({ baseUrl: location.origin }));
          return JSON.parse(localStorage.getItem(storage.subscription) ?? "{}") as { endpoint: string; key: string };
        },
        { storage: STUB_STORAGE, next: newEndpoint, keepKey: keepOldKey },
      );

      const config = (await (await fetch(`${server.url}/api/v1/config`)).json()) as { vapidPublicKey: string };
      expect(used).toEqual({ endpoint: newEndpoint, p256dh: keys.p256dh, auth: keys.auth, key: config.vapidPublicKey });
      const rows = await server.database.db
        .selectFrom("subscriptions")
        .select(["endpoint"])
        .where("endpoint", "in", [oldEndpoint, newEndpoint])
        .execute();
      expect(rows).toEqual([{ endpoint: newEndpoint }]);
    } finally {
      await context.close();
    }
  });
});
