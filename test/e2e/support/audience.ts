/**
 * For the channel, notice and event browser tests: a real server whose delivery engine pushes to the fake push service over
 * TLS, an admin signed in through the API, and browsers whose (stubbed) subscriptions point at the
 * fake, with their private keys registered there so it can decrypt what Sino sent.
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from "playwright-core";
import { API_ROUTES, notificationPath } from "../../../src/shared/api/routes.js";
import type { Notification } from "../../../src/shared/api/notifications.js";
import type { FakePushService } from "../../support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../support/fake-push/test-tls.js";
import type { TestServer } from "../../support/server.js";
import { settledBell } from "./bell-page.js";
import { ADMIN, createFirstAdmin, signInContext } from "./dashboard-page.js";
import { installPushStub, makeSubscriptionKeys } from "./push-stub.js";

/** What startTestServer needs so its engine reaches the fake push service quickly. */
export const FAKE_PUSH_ENV = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};

/** The first admin, signed in in a context of its own; its `request` carries the session cookie. */
export async function adminContext(browser: Browser, server: TestServer): Promise<BrowserContext> {
  await createFirstAdmin(server.url);
  const context = await browser.newContext();
  await signInContext(context, server.baseUrl, ADMIN);
  return context;
}

/** A JSON call with the admin's cookie (and the Origin the CSRF check wants). */
export async function adminCall<T>(request: APIRequestContext, server: TestServer, method: "GET" | "POST" | "PATCH" | "PUT", path: string, data?: unknown): Promise<T> {
  const response = await request.fetch(server.baseUrl + path, { method, headers: { origin: server.baseUrl }, ...(data === undefined ? {} : { data }) });
  if (response.status() >= 300) throw new Error(`${method} ${path} answered ${response.status()}: ${await response.text()}`);
  return (await response.json()) as T;
}

export async function createChannel(request: APIRequestContext, server: TestServer, slug: string, name: string, description?: string): Promise<void> {
  await adminCall(request, server, "POST", API_ROUTES.channels, { slug, name, ...(description ? { description } : {}) });
}

export async function sendNotification(request: APIRequestContext, server: TestServer, body: Record<string, unknown>): Promise<Notification> {
  return (await adminCall<{ notification: Notification }>(request, server, "POST", API_ROUTES.notifications, body)).notification;
}

/** Polls the notification until `done` holds (the test's timeout bounds it). */
export async function waitForNotification(
  request: APIRequestContext,
  server: TestServer,
  id: string,
  done: (n: Notification) => boolean = (n) => n.status === "completed" || n.status === "failed" || n.status === "no_recipients",
): Promise<Notification> {
  for (;;) {
    const { notification } = await adminCall<{ notification: Notification }>(request, server, "GET", notificationPath(id));
    if (done(notification)) return notification;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Visitor {
  context: BrowserContext;
  page: Page;
  /** The fake push service's id of this browser's endpoint. */
  id: string;
  endpoint: string;
  auth: string;
}

/**
 * The page's push stub (an init script) does not reach the service worker, whose real
 * `getSubscription()` then answers null. For tests of what the worker does with its subscription,
 * /sw.js is served with a prelude giving the worker the same subscription; the rest of the worker
 * is the built one, unchanged. (Playwright routes a service worker's script fetch in Chromium.)
 */
export async function stubWorkerSubscription(context: BrowserContext, server: TestServer, subscription: { endpoint: string; p256dh: string; auth: string }): Promise<void> {
  const prelude = `(() => {
  const json = { endpoint: ${JSON.stringify(subscription.endpoint)}, expirationTime: null, keys: { p256dh: ${JSON.stringify(subscription.p256dh)}, auth: ${JSON.stringify(subscription.auth)} } };
  PushManager.prototype.getSubscription = async function () {
    return Object.create(PushSubscription.prototype, { endpoint: { value: json.endpoint }, toJSON: { value: () => json } });
  };
})();
`;
  await context.route(`${server.baseUrl}/sw.js`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: prelude + (await response.text()) });
  });
}

/** A visitor whose bell is on, subscribed at `fake.endpointFor(id)`. */
export async function visitorWithBellOn(browser: Browser, server: TestServer, fake: FakePushService, id: string, path = "/"): Promise<Visitor> {
  // Tests drive the page with helper bundles injected as inline scripts, which Sino's CSP
  // (script-src 'self') rightly refuses; security-headers.test.ts checks the CSP itself.
  const context = await browser.newContext({ bypassCSP: true });
  await context.grantPermissions(["notifications"], { origin: server.baseUrl });
  const keys = makeSubscriptionKeys();
  const endpoint = fake.endpointFor(id);
  fake.registerKeys(id, { privateKey: Buffer.from(keys.privateKey, "base64url"), auth: Buffer.from(keys.auth, "base64url") });
  await installPushStub(context, { endpoint, keys });
  await stubWorkerSubscription(context, server, { endpoint, p256dh: keys.p256dh, auth: keys.auth });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(server.baseUrl + path);
  await (await settledBell(page, "off")).click();
  await settledBell(page, "on");
  return { context, page, id, endpoint, auth: keys.auth };
}
