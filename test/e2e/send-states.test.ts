/**
 * A send's state in the Painel, in a real Chromium against the real server and the fake push
 * service: why pushes are retried and when the next attempt is; a send to nobody with its own
 * state; the icon, image and validity that were set; "Publicar em Avisos" off when composing,
 * and hiding, publishing again and removing a past send, which open Avisos pages follow live.
 * axe on every page and dialog touched, at 1280×800 and 390×844.
 */
import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { notificationNoticePath } from "../../src/shared/api/routes.js";
import { seedSubscriptions } from "../support/delivery.js";
import { useAdminOnFakePush } from "./support/admin-on-fake-push.js";
import { adminCall, sendNotification, waitForNotification } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { field } from "./support/dashboard-page.js";

const S = ptBR.notifications;
const P = ptBR.dashboard;

const run = useAdminOnFakePush();

const SIZES = [
  { name: "1280×800", viewport: { width: 1280, height: 800 } },
  { name: "390×844", viewport: { width: 390, height: 844 } },
] as const;

async function adminPage(viewport: { width: number; height: number }): Promise<Page> {
  const page = await run.admin.newPage();
  await page.setViewportSize(viewport);
  page.setDefaultTimeout(15_000);
  return page;
}

describe("a send's state in the Painel", () => {
  it("shows why pushes are retried by push service, the next attempt, and the icon, image and validity that were set", async () => {
    const ids = await seedSubscriptions(run.server.database, run.fake, 3, "estados-");
    // One browser's push service answers 503 with an hour's Retry-After: that push waits.
    run.fake.setBehaviour({ id: ids[1]!, times: 1, action: { kind: "status", status: 503, retryAfter: 3600 } });
    const send = await sendNotification(run.admin.request, run.server, { title: "Com tropeço", icon: "/icon.svg", image: "/icon.svg", ttl: 7200 });
    await waitForNotification(run.admin.request, run.server, send.id, (n) => n.counts.retrying === 1 && n.counts.accepted === 2);
    const host = new URL(run.fake.endpointFor(ids[1]!)).host;

    for (const size of SIZES) {
      const page = await adminPage(size.viewport);
      try {
        await page.goto(`${run.server.baseUrl}/painel/envios/${send.id}`);
        const retries = page.getByTestId("send-retries");
        await retries.getByRole("heading", { name: S.retries.title }).waitFor();
        await retries.getByTestId("retries-next").waitFor();
        expect(await retries.getByTestId("retries-waiting").textContent()).toBe("1 push esperando nova tentativa");
        expect(await retries.getByTestId("retries-next").textContent()).toMatch(/^Próxima tentativa: .+ \(em 1 hora\)$/);
        const cause = retries.getByTestId("retry-cause");
        expect(await cause.count()).toBe(1);
        expect(await cause.textContent()).toContain(host);
        expect(await cause.textContent()).toContain(`${S.retries.reasons.unavailable} (HTTP 503)`);
        // The table is labelled for screen readers.
        expect(await page.getByRole("table", { name: S.retries.tableLabel }).count()).toBe(1);

        expect(await page.getByRole("img", { name: S.details.iconAlt }).getAttribute("src")).toBe("/icon.svg");
        expect(await page.getByRole("img", { name: S.details.imageAlt }).getAttribute("src")).toBe("/icon.svg");
        expect(await page.getByTestId("detail-ttl").textContent()).toBe("2 horas (o serviço de push guarda a mensagem até lá)");
        expect(await page.getByTestId("send-status").textContent()).toBe(S.status.sending);
        expect(await axeViolations(page), size.name).toEqual([]);
      } finally {
        await page.close();
      }
    }
  });

  it("composes a send kept off Avisos to nobody: its own state and wording, never a green 100%", async () => {
    const { slug } = (await adminCall<{ channel: { slug: string } }>(run.admin.request, run.server, "POST", "/api/v1/channels", { slug: "ninguem", name: "Ninguém assina" })).channel;
    const page = await adminPage(SIZES[0].viewport);
    try {
      await page.goto(`${run.server.baseUrl}/painel/nova`);
      await page.getByRole("heading", { level: 1, name: P.compose.title }).waitFor();
      await field(page, P.compose.fields.title).fill("Teste só da equipe");
      // The channel nobody subscribes to.
      await page.getByRole("combobox", { name: P.compose.fields.audience }).click();
      await page.getByRole("option", { name: /^Ninguém assina/ }).click();
      await page.keyboard.press("Escape");
      const notice = page.getByRole("switch", { name: P.compose.notice.label });
      expect(await notice.isChecked()).toBe(true);
      // Keyboard: reach the switch and turn it off with the space bar.
      await notice.focus();
      await page.keyboard.press("Space");
      expect(await notice.isChecked()).toBe(false);
      expect(await page.locator("#notice-hint").textContent()).toBe(P.compose.notice.offHint);
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole("button", { name: P.compose.submit.now }).click();
      await page.getByRole("dialog").getByRole("button", { name: P.compose.submit.now }).click();
      await page.getByRole("heading", { level: 1, name: "Teste só da equipe" }).waitFor();
      await page.getByTestId("send-status").filter({ hasText: S.status.no_recipients }).waitFor();
      expect(await page.getByTestId("send-no-recipients").textContent()).toBe(S.send.noRecipients);
      expect(await page.getByTestId("send-percent").count()).toBe(0);
      expect(await page.getByTestId("notice-state").textContent()).toBe(S.notice.hidden);
      expect(await axeViolations(page)).toEqual([]);

      const id = /\/painel\/envios\/(\d+)$/.exec(page.url())![1]!;
      const stored = await waitForNotification(run.admin.request, run.server, id, () => true);
      expect(stored).toMatchObject({ status: "no_recipients", notice: "hidden", audience: { type: "channels", channels: [slug] } });

      // Histórico says it in words too, filtered by its own state.
      await page.goto(`${run.server.baseUrl}/painel/historico?status=no_recipients`);
      const row = page.getByTestId("history-row").filter({ hasText: "Teste só da equipe" });
      await row.waitFor();
      expect(await row.textContent()).toContain(S.history.noRecipients);
      expect(await row.textContent()).toContain(S.status.no_recipients);
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("takes a past send off Avisos, publishes it again and removes it for good, and an open Avisos page follows live", async () => {
    const send = await sendNotification(run.admin.request, run.server, { title: "Aviso por engano" });
    await waitForNotification(run.admin.request, run.server, send.id);
    const visitor = await run.browser.newContext();
    const page = await adminPage(SIZES[1].viewport);
    try {
      const avisos = await visitor.newPage();
      avisos.setDefaultTimeout(15_000);
      await avisos.goto(run.server.baseUrl);
      const card = avisos.getByTestId("notice").filter({ hasText: "Aviso por engano" });
      await card.waitFor();

      await page.goto(`${run.server.baseUrl}/painel/envios/${send.id}`);
      await page.getByTestId("notice-state").filter({ hasText: S.notice.public }).waitFor();
      // Keyboard: the action is a real button.
      await page.getByRole("button", { name: S.notice.hide }).focus();
      await page.keyboard.press("Enter");
      await page.getByTestId("notice-state").filter({ hasText: S.notice.hidden }).waitFor();
      await page.getByTestId("notice").filter({ hasText: S.notice.changed.hidden }).waitFor();
      // The open Avisos page drops it without a reload (the stream's withdrawal).
      await card.waitFor({ state: "detached" });

      await page.getByRole("button", { name: S.notice.show }).click();
      await page.getByTestId("notice-state").filter({ hasText: S.notice.public }).waitFor();
      await avisos.reload();
      await card.waitFor();

      await page.getByRole("button", { name: S.notice.remove }).click();
      const dialog = page.getByRole("dialog", { name: S.notice.removeTitle });
      await dialog.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await dialog.getByRole("button", { name: S.notice.removeConfirm }).click();
      await page.getByTestId("notice-state").filter({ hasText: S.notice.removed }).waitFor();
      expect(await page.getByRole("button", { name: S.notice.show }).count()).toBe(0);
      expect(await page.getByRole("button", { name: S.notice.hide }).count()).toBe(0);
      await card.waitFor({ state: "detached" });
      expect(await axeViolations(page)).toEqual([]);

      // And it cannot come back through the API either.
      await expect(adminCall(run.admin.request, run.server, "PATCH", notificationNoticePath(send.id), { notice: "public" })).rejects.toThrow(/409/);
    } finally {
      await page.close();
      await visitor.close();
    }
  });
});
