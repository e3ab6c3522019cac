/**
 * Painel → Sites' engagement in a real Chromium: the active / sleeping split, the frequency cap /
 * send window / zone dialog (validated, saved, axe-clean), and the subscribers list's sleeping filter.
 */
import { describe, expect, it } from "vitest";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import type { SitesResponse } from "../../src/shared/api/sites.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { adminCall } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";

const E = ptBR.engagement;
// The cap and the sleeping rule are off in tests by default (test/support/server.ts): this test shows them.
const run = useAdminOnFakePush({}, { SINO_SLEEPING_DAYS: "30", SINO_FREQUENCY_CAP: "3" });

describe("engagement in the Painel", () => {
  it("shows the split, saves a site's cap and window after refusing a bad cap, and filters sleeping subscribers", async () => {
    await run.server.database.db.deleteFrom("subscriptions").execute();
    for (let i = 0; i < 3; i++) {
      const res = await fetch(run.server.url + API_ROUTES.subscriptions, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(aBrowserSubscription()) });
      expect(res.status).toBe(201);
    }
    const old = Date.now() - 40 * 86_400_000;
    const [first] = await run.server.database.db.selectFrom("subscriptions").select("id").orderBy("id").execute();
    await run.server.database.db.updateTable("subscriptions").set({ created_at: old, last_visit_at: old }).where("id", "=", first!.id).execute();

    const page = await run.admin.newPage();
    page.setDefaultTimeout(15_000);
    try {
      await page.goto(`${run.server.baseUrl}/painel/sites`);
      const card = page.getByTestId("site-engagement");
      await expect.poll(() => card.getByTestId("site-engagement-split").first().textContent()).toBe("2 ativos · 1 adormecidos");
      expect(await axeViolations(page)).toEqual([]);

      const { sites } = await adminCall<SitesResponse>(run.admin.request, run.server, "GET", API_ROUTES.sites);
      const own = sites[0]!;
      await page.getByRole("button", { name: `Frequência e horário de ${own.origin}` }).click();
      const dialog = page.getByRole("dialog", { name: `Frequência e horário de ${own.origin}` });
      await dialog.waitFor();
      await dialog.getByText("De 1 a 50. Vazio: o padrão do servidor (3).").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("textbox", { name: E.delivery.cap }).fill("60");
      await dialog.getByRole("button", { name: E.delivery.save }).click();
      await dialog.getByText(ptBR.errors.site_frequency_cap_invalid).waitFor();
      await dialog.getByRole("textbox", { name: E.delivery.cap }).fill("5");
      await dialog.getByRole("textbox", { name: E.delivery.window }).fill("09:00-20:00");
      await dialog.getByRole("button", { name: E.delivery.save }).click();
      await dialog.waitFor({ state: "hidden" });
      const after = await adminCall<SitesResponse>(run.admin.request, run.server, "GET", API_ROUTES.sites);
      expect(after.sites[0]!.delivery).toEqual({ frequencyCap: 5, sendWindow: "09:00-20:00", timeZone: null });

      await page.goto(`${run.server.baseUrl}/painel/assinantes`);
      await page.getByTestId("activity-filter").click();
      await page.getByRole("option", { name: E.filter.sleeping }).click();
      await expect.poll(() => page.getByRole("row").count()).toBe(2); // the header and the one sleeping subscriber
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
