/**
 * The subscriber's quiet hours on Sino's own /preferencias page (React on @sino/react's useSino()),
 * in a real Chromium with the push service stubbed in the page: saved with proof, stored, axe-clean.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { useChromiumWithInsecureHost } from "./support/bell-chromium.js";
import { settledBell } from "./support/bell-page.js";
import { axeViolations } from "./support/axe.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";

const browser = useChromiumWithInsecureHost("sino.test");
const Q = ptBR.embed.quietHours;

describe("quiet hours on /preferencias (sqlite)", () => {
  let server: TestServer;
  let context: BrowserContext | undefined;
  beforeEach(async () => {
    server = await startTestServer({ dialect: "sqlite" });
  });
  afterEach(async () => {
    await context?.close();
    await server.close();
  });

  it("saves and clears the subscriber's quiet hours and is axe-clean", async () => {
    context = await browser().newContext();
    await context.grantPermissions(["notifications"], { origin: server.baseUrl });
    const endpoint = testEndpoint();
    await installPushStub(context, { endpoint, keys: makeSubscriptionKeys(), mode: "ok" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(server.baseUrl);
    await (await settledBell(page, "off")).click();
    await settledBell(page, "on");

    await page.goto(`${server.baseUrl}/preferencias`);
    const section = page.getByRole("region", { name: Q.title });
    await section.waitFor();
    await section.getByRole("checkbox", { name: Q.enable }).check();
    await section.getByLabel(Q.from).fill("23:00");
    await section.getByLabel(Q.to).fill("08:00");
    await section.getByRole("button", { name: Q.save }).click();
    await expect.poll(() => section.getByRole("status").textContent()).toBe("Pronto: nada de avisos entre 23:00 e 08:00.");
    const stored = async () => (await server.database.db.selectFrom("subscriptions").select("quiet_hours").where("endpoint", "=", endpoint).executeTakeFirstOrThrow()).quiet_hours;
    expect(await stored()).toBe("23:00-08:00");
    expect(await axeViolations(page)).toEqual([]);

    await page.reload();
    await expect.poll(() => page.getByRole("region", { name: Q.title }).getByRole("checkbox", { name: Q.enable }).isChecked()).toBe(true);
    await page.getByRole("region", { name: Q.title }).getByRole("checkbox", { name: Q.enable }).uncheck();
    await page.getByRole("region", { name: Q.title }).getByRole("button", { name: Q.save }).click();
    await expect.poll(stored).toBeNull();
  });
});
