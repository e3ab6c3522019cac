/**
 * Sites in Chromium against the real server: the Painel's Sites page (register an origin, the
 * snippet filled in with Sino's address and the site's key, delete with a confirmation that names
 * the subscribers going with it; the identity secret generated and replaced, shown once, and the
 * warning when verification is off), axe-clean; and Sino's own lighter public pages: the home page's
 * "Ativar notificações" button and /avisos as a real route.
 */
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { SitesResponse } from "../../src/shared/api/sites.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { adminCall, sendNotification } from "./support/audience.js";
import { settledBell } from "./support/bell-page.js";
import { installPushStub, makeSubscriptionKeys } from "./support/push-stub.js";
import { axeViolations } from "./support/axe.js";

const T = ptBR.sites;
const SITE = "https://www.exemplo.com.br";

const run = useAdminOnFakePush();

/** A browser on the site registering there (the embedded bell's request, made from Node). */
async function subscribeOnSite(key: string): Promise<void> {
  const res = await fetch(run.server.url + API_ROUTES.subscriptions, {
    method: "POST",
    headers: { origin: SITE, "content-type": "application/json" },
    body: JSON.stringify({ ...aBrowserSubscription(), site: key }),
  });
  if (res.status !== 201) throw new Error(`registration answered ${res.status}: ${await res.text()}`);
}

describe("Sites in the Painel", () => {
  it("an admin registers a site, gets the snippet with its key, and deletes it after a confirmation naming its subscribers", async () => {
    const page = await run.admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${run.server.baseUrl}/painel/sites`);
      await page.getByRole("heading", { name: T.title, level: 1 }).waitFor();
      const rows = page.getByTestId("site-row");
      await expect.poll(() => rows.count()).toBe(1);
      await page.getByRole("button", { name: T.new }).click();

      const field = page.getByRole("textbox", { name: T.fields.origin });
      await field.fill("www.exemplo.com.br/blog");
      await page.getByRole("button", { name: T.create }).click();
      await page.getByText(ptBR.errors.site_origin_invalid).waitFor();
      // The address of a page of the site: its path is dropped, as the README says.
      await field.fill(`${SITE}/blog/onde-o-sino-vai?utm=x`);
      await page.getByRole("button", { name: T.create }).click();

      // Straight to the snippet, filled in with Sino's address and the new site's key.
      const dialog = page.getByRole("dialog", { name: T.snippetTitle });
      await dialog.waitFor();
      const { sites, sinoUrl } = await adminCall<SitesResponse>(run.admin.request, run.server, "GET", API_ROUTES.sites);
      const site = sites.find((s) => s.origin === SITE)!;
      expect(site.key).toMatch(/^[A-Za-z0-9_-]{12}$/);
      expect(await dialog.getByTestId("snippet-script").textContent()).toBe(`<script src="${sinoUrl}/embed/sino.js" data-site="${site.key}" async></script>`);
      expect(await dialog.getByTestId("snippet-element").textContent()).toBe("<sino-bell></sino-bell>");
      expect(await dialog.getByTestId("snippet-worker").textContent()).toBe(`importScripts('${sinoUrl}/embed/sw.js?site=${site.key}');`);
      expect(await dialog.getByRole("button", { name: /^Copiar/ }).count()).toBe(3);
      // This Sino's public URL is plain http: the https site's snippet would be blocked, and the dialog says so.
      expect(sinoUrl.startsWith("http:")).toBe(true);
      expect(await dialog.getByTestId("snippet-warning").textContent()).toBe(T.snippetWarning.replace("{{sinoUrl}}", new URL(sinoUrl).origin));
      expect(await dialog.getByRole("alert").count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: T.close }).click();
      await dialog.waitFor({ state: "hidden" });
      await expect.poll(() => rows.count()).toBe(2);
      expect(await page.locator(`[data-origin="${SITE}"] [data-testid="site-key"]`).textContent()).toBe(site.key);

      // Two browsers subscribe on the site; the page shows them, and the confirmation says they go.
      await subscribeOnSite(site.key);
      await subscribeOnSite(site.key);
      await page.reload();
      await page.locator(`[data-origin="${SITE}"] [data-testid="site-subscribers"]`).filter({ hasText: "2" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: T.deleteNamed.replace("{{origin}}", SITE) }).click();
      const confirm = page.getByRole("dialog", { name: T.deleteTitle.replace("{{origin}}", SITE) });
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(T.deleteText_other.replace("{{count}}", "2"));
      await confirm.getByRole("button", { name: T.delete }).click();
      await confirm.waitFor({ state: "hidden" });
      await page.getByText(T.deleted_other.replace("{{origin}}", SITE).replace("{{count}}", "2")).waitFor();
      await expect.poll(() => rows.count()).toBe(1);
      const after = await adminCall<SitesResponse>(run.admin.request, run.server, "GET", API_ROUTES.sites);
      expect(after.sites.map((s) => s.origin)).not.toContain(SITE);
    } finally {
      await page.close();
    }
  });
});

describe("People's identity on a site, in the Painel", () => {
  it("an admin generates the identity secret, sees it once with a copy button, replaces it within a grace period, and sees the warning with verification off", async () => {
    const origin = "https://identidade.exemplo.com.br";
    await adminCall(run.admin.request, run.server, "POST", API_ROUTES.sites, { origin });
    await run.admin.grantPermissions(["clipboard-read", "clipboard-write"], { origin: run.server.baseUrl });
    const page = await run.admin.newPage();
    page.setDefaultTimeout(15_000);
    const I = T.identity;
    const named = (text: string) => text.replace("{{origin}}", origin);
    try {
      await page.goto(`${run.server.baseUrl}/painel/sites`);
      const row = page.locator(`[data-origin="${origin}"]`);
      await row.getByTestId("site-identity-secret").filter({ hasText: I.noSecret }).waitFor();
      expect(await row.getByTestId("site-identity-warning").count()).toBe(0);

      // The first secret: straight to the dialog, the only place it is ever shown.
      await row.getByRole("button", { name: named(I.generateNamed) }).click();
      const dialog = page.getByRole("dialog", { name: named(I.secretTitle) });
      await dialog.waitFor();
      const first = (await dialog.getByTestId("identity-secret").textContent()) ?? "";
      expect(first).toMatch(/^[0-9a-f]{64}$/);
      await dialog.getByRole("button", { name: I.copySecret }).click();
      await dialog.getByText(T.copied).waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first);
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: I.done }).click();
      await dialog.waitFor({ state: "hidden" });
      await row.getByTestId("site-identity-secret").filter({ hasText: I.rotatedAt.split("{{")[0]! }).waitFor();
      expect(await page.content()).not.toContain(first);

      // Replacing it asks first, then shows the new one and how long the old one still counts.
      await row.getByRole("button", { name: named(I.rotateNamed) }).click();
      const confirm = page.getByRole("dialog", { name: named(I.rotateTitle) });
      await confirm.getByRole("button", { name: I.rotate }).click();
      await dialog.waitFor();
      const second = (await dialog.getByTestId("identity-secret").textContent()) ?? "";
      expect(second).toMatch(/^[0-9a-f]{64}$/);
      expect(second).not.toBe(first);
      expect(await dialog.getByTestId("identity-secret-grace").textContent()).toContain("24 horas");
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: I.done }).click();
      await dialog.waitFor({ state: "hidden" });
      await row.getByTestId("site-identity-previous").waitFor();

      // Verification off: the warning is in sight, on the page and in the API's answer.
      await row.getByLabel(named(I.switchNamed)).click();
      await row.getByTestId("site-identity-warning").filter({ hasText: ptBR.sites.identity.warning }).waitFor();
      await row.getByText(I.verificationOff).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      const { sites } = await adminCall<SitesResponse>(run.admin.request, run.server, "GET", API_ROUTES.sites);
      expect(sites.find((s) => s.origin === origin)!.identity).toMatchObject({ verification: false, hasSecret: true, warning: ptBR.sites.identity.warning });
      await row.getByLabel(named(I.switchNamed)).click();
      await row.getByText(I.verificationOn).waitFor();
      expect(await row.getByTestId("site-identity-warning").count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});

describe("Sino's own public pages", () => {
  it("the home page has a visible button that turns notifications on and off, like the bell", async () => {
    const context = await run.browser.newContext();
    try {
      await context.grantPermissions(["notifications"], { origin: run.server.baseUrl });
      const keys = makeSubscriptionKeys();
      await installPushStub(context, { endpoint: run.fake.endpointFor("home-button"), keys });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(run.server.baseUrl);
      await settledBell(page, "off");
      await page.getByRole("button", { name: ptBR.app.home.enableButton }).click();
      await page.getByRole("button", { name: ptBR.app.home.disableButton }).waitFor();
      await settledBell(page, "on");
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: ptBR.app.home.disableButton }).click();
      await page.getByRole("button", { name: ptBR.app.home.enableButton }).waitFor();
      await settledBell(page, "off");
    } finally {
      await context.close();
    }
  });

  it("/avisos is a real page listing the notices, not 'Página não encontrada'", async () => {
    await sendNotification(run.admin.request, run.server, { title: "Feira na praça no sábado", body: "Das 8h às 13h." });
    const page = await run.browser.newPage();
    try {
      page.setDefaultTimeout(15_000);
      await page.goto(`${run.server.baseUrl}/avisos`);
      await page.getByTestId("notices").getByText("Feira na praça no sábado").waitFor();
      expect(await page.getByRole("heading", { name: ptBR.notices.title, level: 1 }).count()).toBe(1);
      expect(await page.getByText(ptBR.app.notFound.title).count()).toBe(0);
    } finally {
      await page.close();
    }
  });
});
