/**
 * The subscriber's quiet hours in the embedded bell's panel, in a real Chromium: a site on another
 * origin, Sino's real server and database, the push service stubbed in the page (TESTING.md §2).
 * Saved with proof of possession, stored as `HH:MM-HH:MM`, shown again on the next opening; axe-clean.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BrowserContext } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import type { ApiClient } from "../support/operators.js";
import type { TestServer } from "../support/server.js";
import { useChromiumWithInsecureHost } from "./support/bell-chromium.js";
import { adminOf, registerSite, startEmbedSite, startSinoForEmbed, type EmbedSite } from "./support/embed-site.js";
import { axeViolations } from "./support/axe.js";
import { settledEmbedBell } from "./support/embed-page.js";
import { installPushStub, makeSubscriptionKeys, testEndpoint } from "./support/push-stub.js";

const browser = useChromiumWithInsecureHost("site.test");

describe("quiet hours in the embedded bell's panel (sqlite)", () => {
  let sino: TestServer;
  let admin: ApiClient;
  let site: EmbedSite;
  let context: BrowserContext | undefined;

  beforeEach(async () => {
    sino = await startSinoForEmbed({ dialect: "sqlite" });
    admin = await adminOf(sino);
    site = await startEmbedSite({ sinoUrl: sino.baseUrl, siteKey: null });
    site.setSiteKey((await registerSite(admin, site.origin)).key);
    expect((await admin.post("/api/v1/channels", { slug: "obras", name: "Obras na cidade", isDefault: true })).status).toBe(201);
  });
  afterEach(async () => {
    await context?.close();
    await site?.close();
    await sino?.close();
  });

  it("saves 'Não me avise entre 22:30 e 06:45' with proof, shows it again, clears it, and is axe-clean", async () => {
    context = await browser().newContext();
    await context.grantPermissions(["notifications"], { origin: site.origin });
    const endpoint = testEndpoint();
    await installPushStub(context, { endpoint, keys: makeSubscriptionKeys(), mode: "ok" });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(site.pageUrl());
    await (await settledEmbedBell(page, "off")).click();
    await settledEmbedBell(page, "on");

    const openPanel = async () => {
      await page.getByRole("button", { name: ptBR.embed.channels.open }).click();
      const dialog = page.getByRole("dialog", { name: ptBR.embed.channels.title });
      await dialog.waitFor();
      return dialog;
    };
    let dialog = await openPanel();
    const section = dialog.getByRole("region", { name: ptBR.embed.quietHours.title });
    await section.waitFor();
    const enable = section.getByRole("checkbox", { name: ptBR.embed.quietHours.enable });
    expect(await enable.isChecked()).toBe(false);
    await enable.check();
    await section.getByLabel(ptBR.embed.quietHours.from).fill("22:30");
    await section.getByLabel(ptBR.embed.quietHours.to).fill("06:45");
    await section.getByRole("button", { name: ptBR.embed.quietHours.save }).click();
    await expect.poll(() => section.getByRole("status").textContent()).toBe("Pronto: nada de avisos entre 22:30 e 06:45.");
    const stored = async () => (await sino.database.db.selectFrom("subscriptions").select("quiet_hours").where("endpoint", "=", endpoint).executeTakeFirstOrThrow()).quiet_hours;
    expect(await stored()).toBe("22:30-06:45");
    expect(await axeViolations(page)).toEqual([]);

    // Shown again on the next opening, as the server holds it.
    await page.keyboard.press("Escape");
    dialog = await openPanel();
    const again = dialog.getByRole("region", { name: ptBR.embed.quietHours.title });
    await expect.poll(() => again.getByRole("checkbox", { name: ptBR.embed.quietHours.enable }).isChecked()).toBe(true);
    expect(await again.getByLabel(ptBR.embed.quietHours.from).inputValue()).toBe("22:30");

    await again.getByRole("checkbox", { name: ptBR.embed.quietHours.enable }).uncheck();
    await again.getByRole("button", { name: ptBR.embed.quietHours.save }).click();
    await expect.poll(() => again.getByRole("status").textContent()).toBe(ptBR.embed.quietHours.cleared);
    expect(await stored()).toBeNull();
  });
});
