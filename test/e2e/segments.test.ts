/**
 * Segments in the Painel, in Chromium against the real server: the editor's live count as an
 * expression is typed (debounced), a parse error pointed at by its position (helper text, caret,
 * live region), a channel that does not exist; a saved segment's page with its size, chart and
 * sends; Explicar marking each condition "atendida" / "não atendida" for a person and for one
 * subscription; and a send to the saved segment from the compose form, whose confirmation counts
 * it. axe on every state.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { API_ROUTES } from "../../src/shared/api/routes.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { aBrowserSubscription } from "../support/subscriptions.js";
import { adminCall, adminContext, createChannel } from "./support/audience.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { PUBLISHER, field, helperTextOf, navLabels, signInContext } from "./support/dashboard-page.js";
import { axeViolations } from "./support/axe.js";

const S = ptBR.segments;
const C = ptBR.dashboard.compose;

let browser: Browser;
let server: TestServer;
let admin: BrowserContext;
/** Subscription ids by name. */
const subscriptions: Record<string, string> = {};

/**
 * Registers a subscription (as a browser would), in these channels, identified as `person` when
 * given; returns its id.
 */
async function subscription(channels: string[], person?: string): Promise<string> {
  const sub = aBrowserSubscription();
  await adminCall(admin.request, server, "POST", API_ROUTES.subscriptions, sub);
  if (channels.length > 0) await adminCall(admin.request, server, "PUT", API_ROUTES.subscriptionChannels, { endpoint: sub.endpoint, auth: sub.keys.auth, channels });
  const db = server.database.db;
  if (person !== undefined) await db.updateTable("subscriptions").set({ person_id: person, identified_at: Date.now() }).where("endpoint", "=", sub.endpoint).execute();
  const row = await db.selectFrom("subscriptions").select("id").where("endpoint", "=", sub.endpoint).executeTakeFirstOrThrow();
  return String(row.id);
}

/** A person's trusted tags, stored as the tags API stores them (typed value columns). */
async function trustedTags(person: string, tags: Record<string, string | number>): Promise<void> {
  const rows = Object.entries(tags).map(([key, value]) => ({
    person_id: person,
    key,
    value: String(value),
    num_value: typeof value === "number" ? value : null,
    time_value: null,
    updated_at: Date.now(),
  }));
  await server.database.db.insertInto("person_tags").values(rows).execute();
}

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  // No worker: a send stays queued (its subscriptions point at a real push service's host).
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  admin = await adminContext(browser, server);
  await createChannel(admin.request, server, "obras", "Obras");
  // ana (premium, 30) has two browsers, bia (básico, 17) one; one more subscriber is anonymous.
  subscriptions.ana1 = await subscription(["obras"], "ana");
  subscriptions.ana2 = await subscription([], "ana");
  subscriptions.bia = await subscription(["obras"], "bia");
  subscriptions.anonymous = await subscription(["obras"]);
  await trustedTags("ana", { plano: "premium", idade: 30 });
  await trustedTags("bia", { plano: "basico", idade: 17 });
});
afterAll(async () => {
  await admin?.close();
  await server?.close();
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const page = await admin.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

const expressionField = (scope: Page | Locator) => scope.getByRole("textbox", { name: S.editor.expression });
const countOf = (scope: Page | Locator) => scope.getByTestId("segment-count");

/** Waits until the live count (debounced) says `text`. */
async function countSays(scope: Page | Locator, text: string): Promise<void> {
  await expect.poll(() => countOf(scope).textContent(), { timeout: 10_000 }).toBe(text);
}

describe("segments in the Painel", () => {
  it("counts an expression as it is typed, points at a parse error, warns of an unknown channel, and saves it", async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/segmentos`);
    await page.getByRole("heading", { level: 1, name: S.list.title }).waitFor();
    await page.getByText(S.list.emptyTitle).waitFor();
    expect(await page.getByRole("navigation").getByRole("link", { name: S.nav }).count()).toBeGreaterThan(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: S.list.new }).click();
    const dialog = page.getByRole("dialog");
    await countSays(dialog, S.editor.empty);

    // Counted once the typing pauses: ana's two browsers.
    await expressionField(dialog).fill("plano = premium e idade >= 18");
    await countSays(dialog, "2 inscrições · 1 pessoa");
    expect(await countOf(dialog).getAttribute("aria-live")).toBe("polite");
    expect(await dialog.getByTestId("segment-canonical").textContent()).toContain("plano = premium e idade >= 18");
    expect(await axeViolations(page)).toEqual([]);

    // Cut short: the refusal names the position, a caret points at it, the live region says it.
    await expressionField(dialog).fill("plano = premium e (idade >=");
    await expect.poll(() => countOf(dialog).getAttribute("data-status")).toBe("error");
    const refusal = (await countOf(dialog).textContent()) ?? "";
    expect(refusal).toMatch(/posição 28/i);
    expect(await helperTextOf(expressionField(dialog))).toBe(refusal);
    expect(await expressionField(dialog).getAttribute("aria-invalid")).toBe("true");
    const caret = (await dialog.getByTestId("segment-error-caret").textContent()) ?? "";
    expect(caret).toBe(`plano = premium e (idade >=\n${" ".repeat(27)}^`);
    expect(await axeViolations(page)).toEqual([]);

    // A channel nobody has is no error, but the editor says that condition reaches nobody.
    await expressionField(dialog).fill("canal = obrass ou plano = basico");
    await dialog.getByTestId("segment-unknown-channels").waitFor();
    expect(await dialog.getByTestId("segment-unknown-channels").textContent()).toContain("obrass");
    await countSays(dialog, "1 inscrição · 1 pessoa");
    expect(await axeViolations(page)).toEqual([]);

    // Saved: the segment's page opens, with its size measured on save.
    await expressionField(dialog).fill("plano = premium e idade >= 18");
    await countSays(dialog, "2 inscrições · 1 pessoa");
    await field(dialog, `${S.dialog.name}`).fill("Premium adultos");
    await dialog.getByRole("button", { name: S.dialog.create }).click();
    await page.getByRole("heading", { level: 1, name: "Premium adultos" }).waitFor();
    expect(await page.getByTestId("segment-expression").textContent()).toBe("plano = premium e idade >= 18");
    expect(await page.getByTestId("segment-size").textContent()).toContain("2 inscrições · 1 pessoa");
    await page.getByTestId("segment-history").waitFor();
    await page.getByText(S.detail.noSends).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // The list shows it with its size.
    await page.getByRole("link", { name: S.detail.back }).click();
    const row = page.locator('[data-testid="segment-row"][data-name="Premium adultos"]');
    await row.waitFor();
    expect(await row.textContent()).toContain("2 inscrições · 1 pessoa");
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 90_000);

  it("explains, for a person and for one subscription, which conditions held, in words", async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/segmentos`);
    await page.getByRole("link", { name: "Premium adultos" }).click();
    const panel = page.getByTestId("explain-panel");
    await panel.waitFor();

    // ana: in, through both browsers; every condition "atendida".
    await field(panel, S.explain.userId).fill("ana");
    await panel.getByRole("button", { name: S.explain.submit }).click();
    await panel.getByTestId("explain-summary").waitFor();
    expect(await panel.getByTestId("explain-summary").textContent()).toBe(S.explain.personIn.replace("{{target}}", "ana"));
    expect(await panel.getByTestId("explain-subscription").count()).toBe(2);
    const heldTexts = await panel.getByTestId("explain-node").evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-held")));
    expect(heldTexts.every((held) => held === "true")).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // bia: out; the tree says which condition failed, in words beside each one.
    await field(panel, S.explain.userId).fill("bia");
    await panel.getByRole("button", { name: S.explain.submit }).click();
    await expect.poll(() => panel.getByTestId("explain-summary").textContent()).toBe(S.explain.personOut.replace("{{target}}", "bia"));
    const nodes = panel.getByTestId("explain-node");
    const lines = await nodes.evaluateAll((items) => items.map((item) => (item.firstElementChild?.textContent ?? "").trim()));
    expect(lines).toEqual([`${S.explain.notHeld}plano = premium e idade >= 18`, `${S.explain.notHeld}plano = premium`, `${S.explain.notHeld}idade >= 18`]);
    expect(await axeViolations(page)).toEqual([]);

    // One subscription, by its id: ana's second browser is in.
    await panel.getByRole("radio", { name: S.explain.bySubscription }).check();
    await field(panel, S.explain.subscriptionId).fill(subscriptions.ana2!);
    await panel.getByRole("button", { name: S.explain.submit }).click();
    await expect.poll(() => panel.getByTestId("explain-summary").textContent()).toBe(S.explain.subscriptionIn.replace("{{target}}", subscriptions.ana2!));
    expect(await panel.getByTestId("explain-subscription").count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it("sends to the saved segment from the compose form, with the count in the confirmation, lists the send on the segment's page, then edits and deletes the segment", async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/segmentos`);
    await page.getByRole("link", { name: "Premium adultos" }).click();
    await page.getByRole("link", { name: S.detail.send }).click();
    await page.getByTestId("segment-audience").waitFor();
    expect(await page.getByRole("radio", { name: S.compose.target, exact: true }).isChecked()).toBe(true);
    await expect.poll(() => page.getByRole("combobox", { name: S.compose.segment }).textContent()).toContain("Premium adultos");
    expect(await axeViolations(page)).toEqual([]);

    // A written expression counts live in the form too.
    await page.getByRole("radio", { name: S.compose.written }).check();
    await expressionField(page).fill("tem plano");
    await countSays(page, "3 inscrições · 2 pessoas");
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("radio", { name: S.compose.saved }).check();

    await field(page, C.fields.title).fill("Oferta para assinantes premium");
    await page.getByRole("button", { name: C.submit.now }).click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    expect(await dialog.getByRole("heading").textContent()).toBe("Enviar para o segmento “Premium adultos”?");
    expect(await dialog.textContent()).toContain("para o segmento “Premium adultos” (2 inscrições · 1 pessoa)");
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: C.submit.now }).click();

    // Envio names the segment and the expression it went out with.
    await page.waitForURL(/\/painel\/envios\/\d+$/);
    await page.getByText("O segmento “Premium adultos” (plano = premium e idade >= 18)").waitFor();

    await page.goto(`${server.baseUrl}/painel/segmentos`);
    await page.getByRole("link", { name: "Premium adultos" }).click();
    const sendRow = page.getByTestId("segment-send-row");
    await sendRow.waitFor();
    expect(await sendRow.textContent()).toContain("Oferta para assinantes premium");
    expect(await axeViolations(page)).toEqual([]);

    // Edited: measured again on save. Deleted after confirmation: the list is empty again.
    await page.getByRole("button", { name: S.detail.edit }).click();
    const editor = page.getByRole("dialog");
    expect(await expressionField(editor).inputValue()).toBe("plano = premium e idade >= 18");
    await expressionField(editor).fill("tem plano");
    await countSays(editor, "3 inscrições · 2 pessoas");
    await editor.getByRole("button", { name: S.dialog.save }).click();
    await page.getByText(S.detail.saved).waitFor();
    await expect.poll(() => page.getByTestId("segment-size").textContent()).toContain("3 inscrições · 2 pessoas");
    expect(await page.getByTestId("segment-expression").textContent()).toBe("tem plano");
    await page.getByRole("button", { name: S.detail.delete }).click();
    await page.getByRole("dialog").getByRole("button", { name: S.detail.delete }).click();
    await page.getByText(S.list.emptyTitle).waitFor();
    await page.close();
  }, 90_000);

  it("offers a publisher the segment audience with its live count in the compose form, but not the admin's Segmentos page", async () => {
    await adminCall(admin.request, server, "POST", API_ROUTES.users, { ...PUBLISHER, role: "publisher" });
    const context = await browser.newContext();
    await signInContext(context, server.baseUrl, PUBLISHER);
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${server.baseUrl}/painel/nova`);
    await page.getByRole("heading", { level: 1, name: C.title }).waitFor();
    expect(await navLabels(page)).not.toContain(S.nav);
    // Specific people stay an admin's choice; a segment is anyone's.
    expect(await page.getByRole("radio", { name: C.people.people }).count()).toBe(0);
    await page.getByRole("radio", { name: S.compose.target, exact: true }).check();
    await page.getByRole("radio", { name: S.compose.written }).check();
    await expressionField(page).fill("canal = obras");
    await countSays(page, "3 inscrições · 2 pessoas");
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  }, 60_000);
});
