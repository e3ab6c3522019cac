/**
 * The Painel works in the server's SINO_TIME_ZONE, not in a zone built into the web app nor the
 * browser's: Chromium (in São Paulo) schedules on a server set to Asia/Tokyo (UTC+9, no daylight
 * saving), and the wall time typed is read as Tokyo time, and shown back as such.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { API_ROUTES, notificationPath } from "../../src/shared/api/routes.js";
import type { Notification } from "../../src/shared/api/notifications.js";
import { epochToWallTime } from "../../src/shared/time/zoned-time.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { adminCall } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";

const P = ptBR.dashboard;
const ZONE = "Asia/Tokyo";

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  server = await startTestServer({ env: { SINO_TIME_ZONE: ZONE, SINO_WORKER_EMBEDDED: "false" } });
  await createFirstAdmin(server.url);
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

describe("the Painel's time zone", () => {
  it("is served in the public config", async () => {
    const config = (await (await fetch(server.url + API_ROUTES.config)).json()) as { timeZone: string };
    expect(config.timeZone).toBe(ZONE);
  });

  it("reads a scheduled wall time in SINO_TIME_ZONE and shows it back in that zone", async () => {
    // The browser itself is elsewhere, so neither its zone nor São Paulo's can pass for Tokyo's.
    const context = await browser.newContext({ timezoneId: "America/Sao_Paulo" });
    try {
      await signInContext(context, server.baseUrl, ADMIN);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.baseUrl}/painel/nova`);
      await field(page, P.compose.fields.title).fill("Manutenção em Tóquio");
      await page.getByRole("radio", { name: P.compose.when.later }).check();
      const day = epochToWallTime(Date.now() + 2 * 86_400_000, ZONE).date;
      await page.locator('input[name="date"]').fill(day);
      await page.locator('input[name="time"]').fill("09:30");
      // The form names the zone it reads the time in.
      await page.getByText(/Horário Padrão do Japão/).first().waitFor();
      await page.getByRole("button", { name: P.compose.submit.later }).click();
      const [y, m, d] = day.split("-");
      expect(await page.getByRole("dialog").locator("p").first().textContent()).toContain(`${d}/${m}/${y}, 09:30`);
      await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.later }).click();

      await page.getByRole("heading", { level: 1, name: "Manutenção em Tóquio" }).waitFor();
      const id = /\/painel\/envios\/(\d+)$/.exec(page.url())![1]!;
      const { notification } = await adminCall<{ notification: Notification }>(context.request, server, "GET", notificationPath(id));
      // 09:30 in Tokyo is 00:30 UTC the same day.
      expect(notification.sendAt).toBe(`${day}T00:30:00.000Z`);
      expect(await page.getByTestId("send-when").textContent()).toContain(`${d}/${m}/${y}, 09:30`);
    } finally {
      await context.close();
    }
  });
});
