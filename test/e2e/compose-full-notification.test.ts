/**
 * The full notification in the Painel (issue 19), in Chromium against the real server, light and
 * dark: the compose form's action buttons and advanced options (keyboard, live checks, a field in a
 * closed disclosure opened and focused on submit), the push-size budget going over and the send
 * refused before the server, each platform's preview, and a send with two buttons whose stored
 * notification is read back through the API; then its Envio page with the fields it set and the
 * clicks per button. axe on every state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import type { Notification } from "../../src/shared/api/notifications.js";
import { API_ROUTES, notificationPath } from "../../src/shared/api/routes.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { adminCall, createChannel } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, helperTextOf, signInContext } from "./support/dashboard-page.js";

const C = ptBR.dashboard.compose;
const F = C.full;
const N = ptBR.notifications.full;

let browser: Browser;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
/** A button row's field label: "Texto do botão 2". */
const numbered = (label: string, number: 1 | 2) => label.replace("{{number}}", String(number));
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute("name") ?? null);
const switchOf = (page: Page, label: string): Locator => page.getByRole("switch", { name: label, exact: true }).or(page.getByRole("checkbox", { name: label, exact: true }));

describe.each(["light", "dark"] as const)("the full notification in the Painel (%s mode)", (colorScheme) => {
  let server: TestServer;
  let context: BrowserContext;

  beforeAll(async () => {
    // No worker: the send stays as stored, which is what the API is asked about.
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    await createFirstAdmin(server.url);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
    await signInContext(context, server.baseUrl, ADMIN);
    // A channel, as on a real server: with none, compose's channel list is disabled (and greyed).
    await createChannel(context.request, server, "pedidos", "Pedidos");
  });
  afterAll(async () => {
    await context?.close();
    await server?.close();
  });

  it("composes buttons and options, keeps the budget, previews each platform and sends through to the API", async () => {
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const violations: { state: string; violations: string[] }[] = [];
    const axe = async (state: string) => violations.push({ state, violations: await axeViolations(page) });

    await page.goto(`${server.baseUrl}/painel/nova`);
    await heading(page, C.title).waitFor();
    await field(page, C.fields.title).fill("Seu pedido saiu para entrega");
    await field(page, C.fields.body).fill("Chega hoje até as 18h.");
    await field(page, C.fields.url).fill("/pedidos/4821");

    // Budget: a live count of the bytes left.
    const budgetText = page.getByTestId("payload-budget-text");
    expect(await budgetText.textContent()).toMatch(/^Restam [\d.]+ de 4\.096 bytes\.$/);
    const leftBefore = Number((await budgetText.textContent())!.match(/Restam ([\d.]+)/)![1]!.replace(/\./g, ""));

    // Action buttons: a disclosure opened from the keyboard; "Adicionar botão" puts the focus in the new row.
    const actionsSummary = page.locator("#compose-actions-summary");
    expect(await actionsSummary.getAttribute("aria-expanded")).toBe("false");
    await actionsSummary.focus();
    await page.keyboard.press("Enter");
    expect(await actionsSummary.getAttribute("aria-expanded")).toBe("true");
    await page.getByRole("button", { name: F.actions.add }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "actions.0.label");
    await page.keyboard.type("x".repeat(31));
    await field(page, numbered(F.actions.url, 1)).fill("javascript:alert(1)");
    await field(page, C.fields.title).focus();
    expect(await helperTextOf(field(page, numbered(F.actions.label, 1)))).toBe(F.errors.actionLabelTooLong.replace("{{max}}", "30"));
    expect(await helperTextOf(field(page, numbered(F.actions.url, 1)))).toBe(F.errors.actionLinkInvalid);
    await field(page, numbered(F.actions.label, 1)).fill("Ver pedido");
    await field(page, numbered(F.actions.url, 1)).fill("/pedidos/4821");
    await page.getByRole("button", { name: F.actions.add }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute("name") === "actions.1.label");
    await page.keyboard.type("Rastrear");
    await field(page, numbered(F.actions.url, 2)).fill("https://rastreio.example/4821");
    expect(await page.getByRole("button", { name: F.actions.add }).isDisabled()).toBe(true);
    expect(await page.getByTestId("actions-summary").textContent()).toBe("2 botões");

    // Advanced options: "notificar de novo" waits for a collapse key; the JSON data is checked as typed.
    await page.locator("#compose-advanced-summary").click();
    const renotify = switchOf(page, F.advanced.renotify);
    expect(await renotify.isDisabled()).toBe(true);
    await field(page, C.advanced.collapseKey).fill("pedido-4821");
    expect(await renotify.isDisabled()).toBe(false);
    await renotify.check();
    await switchOf(page, F.advanced.requireInteraction).check();
    await switchOf(page, F.advanced.silent).check();
    await field(page, F.advanced.badge).fill("/selo.png");
    await field(page, F.advanced.appBadge).fill("3");
    const data = field(page, F.advanced.data);
    await data.fill('{ "tela": "pedido"');
    expect(await helperTextOf(data)).toBe(F.errors.dataInvalid);
    await data.fill('{ "tela": "pedido", "id": 4821 }');
    expect(await helperTextOf(data)).toBe("JSON válido: 27 de 1.024 bytes.");
    const leftAfter = Number((await budgetText.textContent())!.match(/Restam ([\d.]+)/)![1]!.replace(/\./g, ""));
    expect(leftAfter).toBeLessThan(leftBefore);
    await axe("compose with buttons and options");

    // Each platform's preview: Android and Windows show both buttons, macOS the first under "Opções", iPhone none.
    const expected = { android: 2, windows: 2, macos: 1, iphone: 0 } as const;
    for (const platform of ["android", "windows", "macos", "iphone"] as const) {
      await page.getByRole("tab", { name: F.preview.platform[platform], exact: true }).click();
      const panel = page.getByTestId(`preview-panel-${platform}`);
      await panel.waitFor();
      expect(await panel.getByTestId("preview-title").textContent()).toBe("Seu pedido saiu para entrega");
      expect(await panel.getByTestId("preview-action").allTextContents()).toEqual(["Ver pedido", "Rastrear"].slice(0, expected[platform]));
      expect(await panel.getByTestId("preview-platform-note").textContent()).toBe(F.preview.note[platform]);
      await axe(`preview ${platform}`);
    }
    expect(await page.getByTestId("preview-panel-iphone").getByTestId("preview-app-badge").textContent()).toBe("3");
    // The tabs follow the arrow keys (MUI's roving focus).
    await page.getByRole("tab", { name: F.preview.platform.iphone }).focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Enter");
    await page.getByTestId("preview-panel-macos").waitFor();
    expect(await page.getByTestId("preview-options").textContent()).toBe(F.preview.options);

    // Over the budget: said (and announced), and the send is refused before the server.
    const long = `https://imagens.example/${"a".repeat(1_950)}.png`;
    await field(page, C.fields.image).fill(long);
    await field(page, C.fields.icon).fill(long);
    await page.getByTestId("payload-budget").and(page.locator('[data-over="true"]')).waitFor();
    expect(await budgetText.textContent()).toMatch(/^Passou [\d.]+ bytes do limite de 4\.096: /);
    expect(await page.getByTestId("payload-budget-announcement").textContent()).toBe(F.budget.overAnnouncement);
    expect(await page.getByTestId("payload-budget-announcement").getAttribute("aria-live")).toBe("polite");
    await axe("compose over the budget");
    await page.getByRole("button", { name: C.submit.now }).click();
    const outcome = page.getByTestId("compose-outcome");
    // The server's own words for it (api.pushTooLarge), with the same numbers the indicator shows.
    const over = (await budgetText.textContent())!.match(/^Passou ([\d.]+) bytes/)![1]!;
    expect(await outcome.textContent()).toMatch(new RegExp(`^A notificação cifrada ficaria com [\\d.]+ bytes, e um push leva no máximo 4\\.096\\. Corte ${over.replace(".", "\\.")} bytes do texto, dos links, dos botões ou dos dados\\.$`));
    expect(await page.getByRole("dialog").count()).toBe(0);
    await field(page, C.fields.image).fill("");
    await field(page, C.fields.icon).fill("");
    await page.getByTestId("payload-budget").and(page.locator('[data-over="false"]')).waitFor();
    expect(await page.getByTestId("payload-budget-announcement").textContent()).toBe("");

    // A bad field inside a closed disclosure: submit opens it and puts the focus there.
    await field(page, numbered(F.actions.label, 2)).fill("");
    await actionsSummary.click();
    expect(await actionsSummary.getAttribute("aria-expanded")).toBe("false");
    await page.getByRole("button", { name: C.submit.now }).click();
    expect(await actionsSummary.getAttribute("aria-expanded")).toBe("true");
    expect(await focusedName(page)).toBe("actions.1.label");
    expect(await helperTextOf(field(page, numbered(F.actions.label, 2)))).toBe(F.errors.actionLabelRequired);
    await page.keyboard.type("Rastrear");

    // The send, through the confirmation, to its Envio page.
    await page.getByRole("button", { name: C.submit.now }).click();
    await page.getByRole("dialog").getByRole("button", { name: C.submit.now }).click();
    await heading(page, "Seu pedido saiu para entrega").waitFor();
    const id = /\/painel\/envios\/(\d+)$/.exec(page.url())![1]!;

    // Stored as composed.
    const { notification } = await adminCall<{ notification: Notification & Record<string, unknown> }>(context.request, server, "GET", notificationPath(id));
    expect(notification).toMatchObject({
      title: "Seu pedido saiu para entrega",
      url: "/pedidos/4821",
      collapseKey: "pedido-4821",
      actions: [
        { label: "Ver pedido", url: "/pedidos/4821" },
        { label: "Rastrear", url: "https://rastreio.example/4821" },
      ],
      renotify: true,
      requireInteraction: true,
      silent: true,
      badge: "/selo.png",
      appBadge: 3,
      data: { tela: "pedido", id: 4821 },
    });

    // Envio shows what was set, and the clicks per button.
    expect(await page.getByTestId("detail-actions").locator("li").allTextContents()).toEqual(["Ver pedido/pedidos/4821", "Rastrearhttps://rastreio.example/4821"]);
    expect(await page.getByTestId("detail-collapseKey").textContent()).toBe("pedido-4821");
    expect(await page.getByTestId("detail-options").textContent()).toBe(`${N.requireInteraction}, ${N.silent} e ${N.renotify}`);
    expect(await page.getByTestId("detail-appBadge").textContent()).toBe("3");
    expect(JSON.parse((await page.getByTestId("detail-data").textContent()) ?? "")).toEqual({ tela: "pedido", id: 4821 });

    // A click on button 1, reported as the service worker does, counted under "ação 1".
    const subscription = aBrowserSubscription();
    await adminCall(context.request, server, "POST", API_ROUTES.subscriptions, subscription);
    const click = await context.request.post(server.baseUrl + API_ROUTES.events, {
      headers: { origin: server.baseUrl },
      data: { notificationId: id, type: "clicked", action: "1", endpoint: subscription.endpoint, auth: subscription.keys.auth },
    });
    expect(click.status()).toBe(204);
    await page.reload();
    const byAction = page.getByTestId("clicks-by-action");
    await byAction.waitFor();
    expect(await byAction.locator("dt").allTextContents()).toEqual([N.clicks.open, `${N.clicks["1"]} (Ver pedido)`, `${N.clicks["2"]} (Rastrear)`]);
    expect(await byAction.locator("dd").allTextContents()).toEqual(["0", "1", "0"]);
    await axe("Envio with the full notification");

    expect(violations).toEqual(violations.map(({ state }) => ({ state, violations: [] })));
  }, 180_000);
});
