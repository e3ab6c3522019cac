/**
 * The compose's delivery rules in Chromium against the real server: the re-engagement switch, the
 * admin's exempt switch with its warning, and the confirmation saying how many of the audience are
 * at their frequency cap and how many are sleeping (GET /audience), or that the rules do not apply
 * to an exempt send; the exempt send stored as such. axe on every state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { createChannel } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";

const C = ptBR.dashboard.compose;
const R = ptBR["delivery-rules"].compose;
const DAY = 86_400_000;

let browser: Browser;
beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const switchOf = (page: Page, label: string): Locator => page.getByRole("switch", { name: label, exact: true }).or(page.getByRole("checkbox", { name: label, exact: true }));

describe("the compose's delivery rules in the Painel", () => {
  let server: TestServer;
  let context: BrowserContext;

  beforeAll(async () => {
    // No worker: sends stay as stored; GET /audience counts from the rows below.
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_FREQUENCY_CAP: "3", SINO_SLEEPING_DAYS: "30" } });
    await createFirstAdmin(server.url);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await signInContext(context, server.baseUrl, ADMIN);
    // A channel, as on a real server: with none, compose's channel list is disabled (and greyed).
    await createChannel(context.request, server, "ofertas", "Ofertas");
    const db = server.database.db;
    const now = Date.now();
    const subscription = (n: number, createdAt: number) => ({ endpoint: `https://fcm.googleapis.com/fcm/send/gates-${n}`, p256dh: "BPk", auth: "au", user_agent: null, created_at: createdAt, updated_at: now, last_seen_at: now });
    await db.insertInto("subscriptions").values([subscription(1, now), subscription(2, now - 40 * DAY), subscription(3, now), subscription(4, now)]).execute();
    const ids = (await db.selectFrom("subscriptions").select("id").orderBy("id").execute()).map((r) => Number(r.id));
    // Subscription 1 had three marketing pushes accepted today: at its cap.
    for (let i = 1; i <= 3; i++) {
      const at = now - i * 3_600_000;
      const sent = await db
        .insertInto("notifications")
        .values({ title: `Oferta ${i}`, body: null, icon: null, image: null, badge: null, tag: `t${i}`, url: null, urgency: null, ttl_seconds: 60, topic: null, audience: '{"kind":"everyone"}', payload: "{}", status: "completed", created_at: at, expires_at: at + 60_000, finished_at: at + 1000, queued: 1, accepted: 1 })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db.insertInto("notification_recipients").values({ notification_id: Number(sent.id), subscription_id: ids[0]!, person_id: null, site_id: 1, outcome: "accepted", reason: null, attempts: 1, updated_at: at + 500 }).execute();
    }
  });
  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  it("offers re-engagement and the admin's exempt switch, and the confirmation counts who is at the cap and asleep", async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const violations: { state: string; violations: string[] }[] = [];
    const axe = async (state: string) => violations.push({ state, violations: await axeViolations(page) });

    await page.goto(`${server.baseUrl}/painel/nova`);
    await page.getByRole("heading", { level: 1, name: C.title, exact: true }).waitFor();
    await field(page, C.fields.title).fill("Promoção de sábado");
    const reengagement = switchOf(page, R.reengagement);
    const exempt = switchOf(page, R.exempt);
    expect(await reengagement.isChecked()).toBe(false);
    expect(await exempt.isChecked()).toBe(false);
    expect(await page.getByText(R.reengagementHelp).isVisible()).toBe(true);
    await axe("rules off");

    // The confirmation: 1 at its cap, 1 asleep.
    await page.getByRole("button", { name: C.submit.now, exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const note = dialog.getByTestId("confirm-note");
    expect(await note.textContent()).toBe("1 assinante já atingiu o limite de frequência e não receberá este envio. 1 assinante está adormecido e não receberá este envio.");
    await axe("confirmation with limited and asleep");
    await dialog.getByRole("button", { name: ptBR.dashboard.common.cancel }).click();
    await dialog.waitFor({ state: "hidden" });

    // Re-engagement: the sleeping subscriber is reached once.
    await reengagement.focus();
    await page.keyboard.press("Space");
    expect(await reengagement.isChecked()).toBe(true);
    await page.getByRole("button", { name: C.submit.now, exact: true }).click();
    await dialog.waitFor();
    expect(await note.textContent()).toBe("1 assinante já atingiu o limite de frequência e não receberá este envio. 1 assinante está adormecido: recebe este reengajamento se não recebeu outro no período.");
    await dialog.getByRole("button", { name: ptBR.dashboard.common.cancel }).click();
    await dialog.waitFor({ state: "hidden" });

    // Exempt (admin): a warning while on; the confirmation says the rules do not apply.
    await exempt.focus();
    await page.keyboard.press("Space");
    expect(await exempt.isChecked()).toBe(true);
    const warning = page.getByTestId("exempt-warning");
    expect(await warning.textContent()).toBe(R.exemptWarning);
    expect(await exempt.getAttribute("aria-describedby")).toBe("exempt-hint");
    await axe("exempt on");
    await page.getByRole("button", { name: C.submit.now, exact: true }).click();
    await dialog.waitFor();
    expect(await note.textContent()).toBe(R.confirmExempt);
    await axe("confirmation of an exempt send");
    await dialog.getByRole("button", { name: C.submit.now, exact: true }).click();
    await page.waitForURL(/\/painel\/envios\/\d+/);
    const id = /\/painel\/envios\/(\d+)/.exec(page.url())![1];
    const stored = await context.request.get(`${server.baseUrl}/api/v1/notifications/${id}`);
    expect((await stored.json()).notification).toMatchObject({ title: "Promoção de sábado", exempt: true, reengagement: true });
    await page.close();

    expect(violations).toEqual(violations.map(({ state }) => ({ state, violations: [] })));
  }, 90_000);
});
