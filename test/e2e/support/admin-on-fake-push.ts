import { afterAll, beforeAll } from "vitest";
import type { Browser, BrowserContext } from "playwright-core";
import { launchChromium } from "../../support/browser.js";
import { startFakePushService, type FakePushService, type FakePushServiceOptions } from "../../support/fake-push/fake-push-service.js";
import { startTestServer, type TestServer } from "../../support/server.js";
import { adminContext, FAKE_PUSH_ENV } from "./audience.js";
import { requireBuiltWebApp } from "./built-web-app.js";

/** The file's Chromium, fake push service, SQLite server pushing to it, and signed-in admin. */
export interface AdminOnFakePush {
  browser: Browser;
  fake: FakePushService;
  server: TestServer;
  admin: BrowserContext;
}

/**
 * For the whole file (beforeAll, after checking the built web app): a Chromium and a fake push
 * service, a SQLite test server that pushes to the fake, and an admin's browser context; all
 * closed afterAll, the admin first.
 */
/** `env`: options over the test server's defaults (e.g. the sleeping rule, off in tests by default). */
export function useAdminOnFakePush(fakeOptions: FakePushServiceOptions = {}, env: Record<string, string> = {}): AdminOnFakePush {
  const current: Partial<AdminOnFakePush> = {};
  beforeAll(async () => {
    requireBuiltWebApp();
    const [browser, fake] = await Promise.all([launchChromium(), startFakePushService(fakeOptions)]);
    current.browser = browser;
    current.fake = fake;
    const server = await startTestServer({ dialect: "sqlite", env: { ...FAKE_PUSH_ENV, ...env } });
    current.server = server;
    current.admin = await adminContext(browser, server);
  });
  afterAll(async () => {
    await current.admin?.close();
    await current.server?.close();
    await current.fake?.close();
    await current.browser?.close();
  });
  return current as AdminOnFakePush;
}
