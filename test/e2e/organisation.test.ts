/**
 * The organisation's identity in Chromium against the real server: an admin sets the name, accent
 * colour and logo on Painel → Organização (keyboard-reachable, axe-clean), and visitors see them on
 * the public page's bar and buttons, in the bell's panel, in the manifest, and as the icon of a
 * push that sets none (decrypted by the fake push service).
 */
import { describe, expect, it } from "vitest";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { solidPng } from "../support/png.js";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { sendNotification, visitorWithBellOn, waitForNotification } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";

const O = ptBR.dashboard.organisation;
const run = useAdminOnFakePush();
const ACCENT = "#7a1f5c";
const ACCENT_RGB = "rgb(122, 31, 92)";

describe("the organisation's identity", () => {
  it("an admin sets name, colour and logo on Painel → Organização, and visitors see them on the public page", async () => {
    const page = await run.admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${run.server.baseUrl}/painel`);
      // In the navigation, for admins.
      await page.getByRole("link", { name: ptBR.dashboard.nav.organisation }).click();
      await page.getByRole("heading", { level: 1, name: O.title }).waitFor();
      await page.getByTestId("organisation-logo-none").waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // A colour too light for white text is refused by the server, beside the field, in pt-BR.
      await page.getByRole("textbox", { name: O.name, exact: true }).fill("Prefeitura de Exemplo");
      await page.getByRole("textbox", { name: O.accent, exact: true }).fill("#ffeb3b");
      await page.getByRole("button", { name: O.save }).click();
      await page.getByText(ptBR.errors.organisation_accent_low_contrast).waitFor();

      await page.getByRole("textbox", { name: O.accent, exact: true }).fill(ACCENT);
      await page.getByTestId("organisation-logo-input").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: solidPng(192, 192, [122, 31, 92]) });
      await page.getByText(O.logoPending.replace("{{name}}", "logo.png")).waitFor();
      const preview = page.getByTestId("organisation-preview");
      expect(await preview.textContent()).toContain("Prefeitura de Exemplo");
      expect(await preview.evaluate((el) => getComputedStyle(el).color)).toBe(ACCENT_RGB);
      // Saved from the keyboard: the button is reachable and Enter submits.
      await page.getByRole("button", { name: O.save }).focus();
      await page.keyboard.press("Enter");
      await page.getByTestId("notice").filter({ hasText: O.saved }).waitFor();
      await page.getByTestId("organisation-logo-current").waitFor();
      expect(await page.getByTestId("organisation-logo-current").evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(192);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }

    const visitor = await run.browser.newContext();
    try {
      const home = await visitor.newPage();
      home.setDefaultTimeout(15_000);
      await home.goto(run.server.baseUrl);
      await home.getByTestId("organisation-name").filter({ hasText: "Prefeitura de Exemplo" }).waitFor();
      const logo = home.getByTestId("organisation-logo");
      await logo.waitFor();
      await home.waitForFunction(() => (document.querySelector('[data-testid="organisation-logo"]') as HTMLImageElement | null)?.naturalWidth === 192);
      expect(await home.title()).toBe("Prefeitura de Exemplo");
      // The accent colour is the theme's: the main button wears it.
      const button = home.getByTestId("home-toggle");
      await button.waitFor();
      // (Polled: the colour eases in from Sino's blue once the identity has loaded.)
      await expect.poll(() => button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(ACCENT_RGB);
      expect(await axeViolations(home)).toEqual([]);

      const manifest = (await (await fetch(`${run.server.url}/manifest.webmanifest`)).json()) as { short_name: string; theme_color: string; icons: { src: string; sizes: string }[] };
      expect(manifest).toMatchObject({ short_name: "Prefeitura de Exemplo", theme_color: ACCENT });
      expect(manifest.icons[0]!.sizes).toBe("192x192");
      expect(await home.evaluate(() => document.querySelector('link[rel="manifest"]')?.getAttribute("href"))).toBe("/manifest.webmanifest");
    } finally {
      await visitor.close();
    }
  });

  it("heads the bell's panel on Sino's page, and is the icon of a push that sets none", async () => {
    const visitor = await visitorWithBellOn(run.browser, run.server, run.fake, "identity-visitor");
    try {
      await visitor.page.getByTestId("channel-menu-button").click();
      const panel = visitor.page.getByTestId("panel-organisation");
      await panel.waitFor();
      expect(await panel.textContent()).toBe("Prefeitura de Exemplo");
      expect(await panel.getByTestId("organisation-logo").count()).toBe(1);
      expect(await axeViolations(visitor.page)).toEqual([]);

      const organisation = (await (await fetch(`${run.server.url}/api/v1/organisation`)).json()) as { organisation: { logoUrl: string } };
      const sent = await sendNotification(run.admin.request, run.server, { title: "Aviso sem ícone" });
      await waitForNotification(run.admin.request, run.server, sent.id);
      const delivered = run.fake
        .stats()
        .log.filter((entry) => entry.id === "identity-visitor" && entry.plaintext !== undefined)
        .map((entry) => JSON.parse(entry.plaintext!) as { title: string; icon?: string });
      expect(delivered.find((payload) => payload.title === "Aviso sem ícone")?.icon).toBe(organisation.organisation.logoUrl);
    } finally {
      await visitor.context.close();
    }
  });
});
