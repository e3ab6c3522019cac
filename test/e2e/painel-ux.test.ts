/**
 * What an operator meets in the first hour (issue 23, items 8–10 and dark mode), in Chromium against
 * the real server: the appearance menu (light, dark, the system's; kept across pages and reloads),
 * MUI's own labels in pt-BR, the Painel's phone layouts at 390×844 (Sites, Users, History, compose),
 * a dead icon or image address caught in compose, the channel dialog's errors following the text,
 * the cancel dialogs' wording, the "Envios por dia" and channel charts, and the Painel's links to
 * the public page and the API docs. axe runs on every state shown, in light and dark mode.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { adminCall, createChannel, sendNotification } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { ADMIN, createFirstAdmin, field, signInContext } from "./support/dashboard-page.js";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const A = ptBR.app.colorMode;

let browser: Browser;
let server: TestServer;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  // No worker: sends stay queued or scheduled, so the pages show a stable state (and can be cancelled).
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  await createFirstAdmin(server.url);
});
afterAll(async () => {
  await server?.close();
  await browser?.close();
});

async function adminIn(options: { viewport?: { width: number; height: number }; colorScheme?: "light" | "dark" } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, colorScheme: options.colorScheme ?? "light" });
  await signInContext(context, server.baseUrl, ADMIN);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

async function ready(page: Page, path: string): Promise<void> {
  await page.goto(server.baseUrl + path);
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await page.waitForFunction(() => document.querySelector(".MuiSkeleton-root, .MuiCircularProgress-root") === null);
}

/** The page's background, as the body paints it: "rgb(r, g, b)". */
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const DARK_BACKGROUND = "rgb(18, 18, 18)";
const LIGHT_BACKGROUND = "rgb(246, 247, 251)";

describe("appearance (dark mode)", () => {
  it("follows the system, and keeps a chosen appearance across reloads, the public pages and the Painel", async () => {
    const context = await browser.newContext({ colorScheme: "dark" });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(server.baseUrl + "/avisos");
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);
      const button = page.getByTestId("color-mode-button");
      expect(await button.getAttribute("aria-label")).toBe(A.label.replace("{{mode}}", A.system));

      // By keyboard: the button opens the choice with the current one checked and focused; the
      // arrow keys move it, applying each at once.
      await button.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: A.title });
      await dialog.waitFor();
      expect(await dialog.getByRole("radio", { checked: true }).getAttribute("value")).toBe("system");
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe("system");
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("ArrowDown");
      expect(await dialog.getByRole("radio", { name: A.light }).isChecked()).toBe(true);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);
      expect(await page.evaluate(() => localStorage.getItem("sino.colorMode"))).toBe("light");

      await page.reload();
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);

      // The Painel shares the choice (one origin), and offers the same menu.
      await page.goto(server.baseUrl + "/painel/entrar");
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      expect(await bodyBackground(page)).toBe(LIGHT_BACKGROUND);

      await signInContext(context, server.baseUrl, ADMIN);
      await ready(page, "/painel");
      await page.getByTestId("color-mode-button").click();
      await page.getByRole("radio", { name: A.dark }).check();
      await page.keyboard.press("Escape");
      expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);
      expect(await page.getByTestId("color-mode-button").getAttribute("aria-label")).toBe(A.label.replace("{{mode}}", A.dark));

      // Back to the system's: the stored choice is forgotten, and the system (dark here) rules.
      await page.getByTestId("color-mode-button").click();
      await page.getByRole("radio", { name: A.system }).check();
      expect(await page.evaluate(() => localStorage.getItem("sino.colorMode"))).toBeNull();
      expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("draws a dark page for a light system when dark is chosen, the Avisos with their notices axe-clean", async () => {
    const context = await browser.newContext({ colorScheme: "light" });
    try {
      const admin = await adminIn();
      await createChannel(admin.context.request, server, "obras-escuro", "Obras");
      await sendNotification(admin.context.request, server, { title: "Aviso no escuro", body: "Lido à noite.", audience: { type: "channels", channels: ["obras-escuro"] } });
      await admin.context.close();
      await context.addInitScript(() => localStorage.setItem("sino.colorMode", "dark"));
      const page = await context.newPage();
      await page.goto(server.baseUrl + "/avisos");
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.getByText("Aviso no escuro").waitFor();
      expect(await bodyBackground(page)).toBe(DARK_BACKGROUND);
      // The browser's own parts (scroll bars, form controls) follow too.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe("dark");
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe("MUI's own labels", () => {
  it("are pt-BR on every Painel page: pagination, a notice's close button", async () => {
    const { context, page } = await adminIn();
    try {
      const sub = aBrowserSubscription();
      await adminCall(context.request, server, "POST", API_ROUTES.subscriptions, sub);
      const english = /\b(close|open|clear|go to|next page|previous page|first page|last page|rows per page|no options|loading)\b/i;
      const found: string[] = [];
      const collect = async (where: string) => {
        const labels = await page.evaluate(() =>
          [...document.querySelectorAll("[aria-label], [title], [placeholder]")].flatMap((element) =>
            ["aria-label", "title", "placeholder"].map((name) => element.getAttribute(name) ?? "").filter((value) => value !== ""),
          ),
        );
        found.push(...labels.filter((label) => english.test(label)).map((label) => `${where}: ${label}`));
      };
      for (const path of ["/painel", "/painel/historico", "/painel/assinantes", "/painel/pessoas", "/painel/canais", "/painel/sites", "/painel/usuarios", "/painel/tokens", "/painel/segmentos", "/painel/webhooks"]) {
        await ready(page, path);
        await collect(path);
      }
      // The subscribers' pagination: MUI's "Go to next page" without the pt-BR locale.
      await ready(page, "/painel/assinantes");
      expect(await page.getByRole("button", { name: "Ir para a próxima página" }).count()).toBe(1);

      // A notice (after creating a channel) has MUI's close button.
      await ready(page, "/painel/canais");
      await page.getByRole("button", { name: ptBR.channels.createTitle }).first().click();
      await field(page.getByRole("dialog"), ptBR.channels.fields.name).fill("Rótulos");
      await page.getByRole("dialog").getByRole("button", { name: ptBR.channels.create }).click();
      await page.getByTestId("notice").waitFor();
      await page.getByRole("dialog").waitFor({ state: "hidden" });
      await collect("/painel/canais (aviso)");
      expect(await page.getByTestId("notice").getByRole("button", { name: "Fechar", includeHidden: true }).count()).toBe(1);
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  }, 180_000);
});

describe("the channel dialog", () => {
  it("drops the reserved-slug error once the slug changes", async () => {
    const { context, page } = await adminIn();
    try {
      await ready(page, "/painel/canais");
      await page.getByRole("button", { name: ptBR.channels.createTitle }).first().click();
      const dialog = page.getByRole("dialog");
      await field(dialog, ptBR.channels.fields.name).fill("Todos");
      await dialog.getByRole("button", { name: ptBR.channels.create }).click();
      const reserved = dialog.getByText(ptBR.channels.errors.slugReserved);
      await reserved.waitFor();

      // The slug follows the name: the error was about "todos", and "todos-os-avisos" is fine.
      await field(dialog, ptBR.channels.fields.name).fill("Todos os avisos");
      expect(await field(dialog, ptBR.channels.fields.slug).inputValue()).toBe("todos-os-avisos");
      expect(await reserved.count()).toBe(0);
      expect(await field(dialog, ptBR.channels.fields.slug).getAttribute("aria-invalid")).toBe("false");

      // Typed by hand, the same.
      await field(dialog, ptBR.channels.fields.slug).fill("todos");
      await dialog.getByRole("button", { name: ptBR.channels.create }).click();
      await reserved.waitFor();
      await field(dialog, ptBR.channels.fields.slug).fill("todos-2");
      expect(await reserved.count()).toBe(0);
      await dialog.getByRole("button", { name: ptBR.channels.create }).click();
      await dialog.waitFor({ state: "hidden" });
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe("cancelling a send", () => {
  it("says 'Interromper' throughout for a running send, with 'Continuar enviando' beside it", async () => {
    const { context, page } = await adminIn();
    try {
      const running = await sendNotification(context.request, server, { title: "Interromper de verdade" });
      await ready(page, `/painel/envios/${running.id}`);
      await page.getByRole("button", { name: ptBR.notifications.send.cancelRunning }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByText(ptBR.notifications.send.confirmTitleRunning).waitFor();
      expect(await dialog.getByRole("button").allTextContents()).toEqual([ptBR.notifications.send.keepRunning, ptBR.notifications.send.cancelRunning]);
      expect(await axeViolations(page)).toEqual([]);
      // "Continuar enviando" has the focus: Enter keeps the send.
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "hidden" });
      expect((await server.delivery.getNotification(Number(running.id)))?.status).not.toBe("cancelled");
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe("the Painel's links", () => {
  it("opens the public page and the API docs in a new tab, from the navigation", async () => {
    const { context, page } = await adminIn();
    try {
      await ready(page, "/painel");
      const nav = page.getByRole("navigation", { name: ptBR.dashboard.nav.label });
      for (const [name, path] of [
        [ptBR.dashboard.nav.publicPage, "/avisos"],
        [ptBR.dashboard.nav.apiDocs, "/api/docs/"],
      ] as const) {
        const link = nav.getByRole("link", { name: `${name} ${ptBR.dashboard.nav.opensInNewTab}` });
        expect(await link.getAttribute("href")).toBe(path);
        expect(await link.getAttribute("target")).toBe("_blank");
        const [opened] = await Promise.all([context.waitForEvent("page"), link.click()]);
        await opened.waitForLoadState();
        expect(new URL(opened.url()).pathname).toBe(path);
        await opened.close();
      }
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe("the overview charts", () => {
  it("draws a few sends beside thousands of deliveries visibly, and channel names whole", async () => {
    const { context, page } = await adminIn();
    try {
      await createChannel(context.request, server, "manutencao-rede", "Manutenção da rede elétrica");
      for (let i = 0; i < 11; i += 1) await sendNotification(context.request, server, { title: `Envio ${i + 1}` });
      // Deliveries as a busy day would have them: thousands accepted by the push services.
      await server.database.db.updateTable("notifications").set({ accepted: 1000 }).execute();

      await ready(page, "/painel");
      const sends = page.getByRole("figure", { name: ptBR.results.charts.sendsOverTime });
      await sends.locator("svg rect.MuiBarElement-root >> visible=true").first().waitFor();
      const bars = await sends.locator("svg rect.MuiBarElement-root").evaluateAll((rects) =>
        rects.map((rect) => ({ x: Number(rect.getAttribute("x")), height: rect.getBoundingClientRect().height })).sort((a, b) => a.x - b.x),
      );
      // Today's bars, in series order: sends (11), accepted (11,000), clicked (0).
      const [sendsBar, acceptedBar] = bars.slice(-3);
      expect(sendsBar!.height).toBeGreaterThan(acceptedBar!.height / 2);

      const byChannel = page.getByRole("figure", { name: ptBR.results.charts.byChannel });
      await byChannel.locator("svg").first().waitFor();
      expect(await byChannel.locator("svg text").allTextContents()).toContain("Manutenção da rede elétrica");
      expect(await axeViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe("compose", () => {
  it("warns when the icon or image address does not load, and stops once it does", async () => {
    const { context, page } = await adminIn();
    try {
      await ready(page, "/painel/nova");
      await field(page, ptBR.dashboard.compose.fields.title).fill("Ícone quebrado");
      await field(page, ptBR.dashboard.compose.fields.icon).fill("/nao-existe/icone.png");
      await field(page, ptBR.dashboard.compose.fields.image).fill("/nao-existe/imagem.png");
      await page.getByTestId("broken-icon").waitFor();
      await page.getByTestId("broken-image").waitFor();
      expect(await page.getByTestId("broken-icon").textContent()).toBe(ptBR.dashboard.compose.brokenIcon);
      expect(await axeViolations(page)).toEqual([]);

      await field(page, ptBR.dashboard.compose.fields.icon).fill("/icon.svg");
      await page.getByTestId("broken-icon").waitFor({ state: "detached" });
      await field(page, ptBR.dashboard.compose.fields.image).fill("");
      await page.getByTestId("broken-image").waitFor({ state: "detached" });
    } finally {
      await context.close();
    }
  }, 60_000);
});

for (const colorScheme of ["light", "dark"] as const) {
  describe(`the Painel on a 390×844 phone (${colorScheme})`, () => {
    let context: BrowserContext;
    let page: Page;
    beforeAll(async () => {
      ({ context, page } = await adminIn({ viewport: PHONE, colorScheme }));
    });
    afterAll(async () => {
      await context?.close();
    });

    it("shows each site's key", async () => {
      await ready(page, "/painel/sites");
      const row = page.getByTestId("site-row").first();
      const key = (await row.getAttribute("data-origin")) ? await row.getByTestId("site-key-phone").textContent() : null;
      expect(key).toMatch(new RegExp(`^${ptBR.sites.columns.key}: \\S+`));
      expect(await row.getByTestId("site-key-phone").isVisible()).toBe(true);
      expect(await noHorizontalScroll(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    }, 60_000);

    it("keeps operators' names whole words", async () => {
      const name = colorScheme === "light" ? "Maria Aparecida Fernandes" : "Joaquim Bartolomeu Albuquerque";
      await adminCall(context.request, server, "POST", API_ROUTES.users, { name, email: `${colorScheme}.operadora.com.nome.longo@example.com`, password: "senha-longa-da-maria", role: "publisher" });
      await ready(page, "/painel/usuarios");
      const cell = page.getByTestId("user-name").filter({ hasText: name });
      // A line per word at most (letter by letter, it took one per letter).
      const lines = await cell.evaluate((element) => {
        const range = document.createRange();
        range.selectNodeContents(element.firstChild!);
        return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
      });
      expect(lines).toBeLessThanOrEqual(name.split(" ").length);
      expect(await noHorizontalScroll(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    }, 60_000);

    it("shows each send's date and delivery in History", async () => {
      await sendNotification(context.request, server, { title: `No celular (${colorScheme})` });
      await ready(page, "/painel/historico");
      const row = page.getByTestId("history-row").filter({ hasText: `No celular (${colorScheme})` });
      const summary = row.getByTestId("history-row-summary");
      expect(await summary.isVisible()).toBe(true);
      // "26/11/2026 07:02 · 0 de 0 aceitos": the date, then the delivery.
      expect(await summary.textContent()).toMatch(/\d{2}\/\d{2}\/\d{4}.*·.*aceitos/);
      expect(await noHorizontalScroll(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    }, 60_000);

    it("puts the preview before the send button in compose", async () => {
      await ready(page, "/painel/nova");
      await field(page, ptBR.dashboard.compose.fields.title).fill("Prévia primeiro");
      const preview = await page.getByTestId("notification-preview").boundingBox();
      const send = await page.getByRole("button", { name: ptBR.dashboard.compose.submit.now }).boundingBox();
      expect(preview!.y + preview!.height).toBeLessThan(send!.y);
      expect(await page.getByTestId("preview-title").textContent()).toBe("Prévia primeiro");
      expect(await noHorizontalScroll(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
    }, 60_000);
  });
}

/** Nothing wider than the phone's screen: the page does not scroll sideways. */
function noHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}
