/**
 * Avisos when the server refuses the live stream (issue 21: many phones share one carrier address,
 * CGNAT). A server allowing one stream per address, a stream held open from Node on the same
 * address: the browser's stream gets the real 429 too_many_streams, and the page must still show
 * new notices by reading the list every NOTICES_POLL_MS (Playwright's clock runs the interval),
 * say so, pass axe, and go back to the stream once the server takes it.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { NOTICES_POLL_MS } from "../../src/web/notices/useNotices.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { adminContext, FAKE_PUSH_ENV, sendNotification, waitForNotification } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";

let browser: Browser;
let server: TestServer;
let admin: BrowserContext;
beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  server = await startTestServer({ dialect: "sqlite", env: { ...FAKE_PUSH_ENV, SINO_STREAMS_MAX_PER_ADDRESS: "1" } });
  admin = await adminContext(browser, server);
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
  await browser?.close();
});

it("polls the list when the live stream is refused, says so, and returns to the stream when it can", async () => {
  const first = await sendNotification(admin.request, server, { title: "Antes da recusa" });
  await waitForNotification(admin.request, server, first.id);
  // The one stream this address may hold.
  const holder = new AbortController();
  const held = await fetch(`${server.url}${API_ROUTES.noticesStream}`, { signal: holder.signal });
  expect(held.status).toBe(200);
  const refused = await fetch(`${server.url}${API_ROUTES.noticesStream}`);
  expect(refused.status).toBe(429);
  await refused.body?.cancel();

  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.clock.install();
    await page.goto(server.baseUrl);
    await page.getByTestId("notice").filter({ hasText: "Antes da recusa" }).waitFor();
    const polling = page.getByTestId("notices-polling");
    await polling.waitFor();
    expect(await polling.textContent()).toBe(ptBR.notices.polling.replace("{{seconds}}", String(NOTICES_POLL_MS / 1000)));
    expect(await page.getByRole("alert").count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    const second = await sendNotification(admin.request, server, { title: "Chegou pela consulta" });
    await waitForNotification(admin.request, server, second.id);
    await page.clock.runFor(NOTICES_POLL_MS);
    await page.getByTestId("notice").filter({ hasText: "Chegou pela consulta" }).waitFor();
    expect(await page.getByTestId("notice").getByRole("heading").allTextContents()).toEqual(["Chegou pela consulta", "Antes da recusa"]);

    // The address's stream closes: a few polls later the page takes the live stream again.
    holder.abort();
    await page.clock.runFor(NOTICES_POLL_MS * 4);
    await polling.waitFor({ state: "detached" });
    const third = await sendNotification(admin.request, server, { title: "De novo ao vivo" });
    await waitForNotification(admin.request, server, third.id);
    // No clock moved: only the stream can bring it.
    await page.getByTestId("notice").filter({ hasText: "De novo ao vivo" }).waitFor();
  } finally {
    holder.abort();
    await context.close();
  }
});
