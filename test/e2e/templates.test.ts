/**
 * Templates, copies and edits of sends in the Painel, in Chromium against the real server: the
 * compose form saved as a template, listed on Modelos, used and updated from compose, deleted;
 * a past send duplicated into compose; a scheduled send edited (content, time) and its edit
 * refused once the send is no longer scheduled. axe on every page and dialog touched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import type { Notification } from "../../src/shared/api/notifications.js";
import { API_ROUTES, notificationPath } from "../../src/shared/api/routes.js";
import { ptBR } from "../../src/shared/i18n/catalog.js";
import { epochToWallTime } from "../../src/shared/time/zoned-time.js";
import { launchChromium } from "../support/browser.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { adminCall, adminContext, createChannel, sendNotification } from "./support/audience.js";
import { axeViolations } from "./support/axe.js";
import { requireBuiltWebApp } from "./support/built-web-app.js";
import { field, navLabels } from "./support/dashboard-page.js";

const T = ptBR.templates;
const C = ptBR.dashboard.compose;
const N = ptBR.notifications;

let browser: Browser;
let server: TestServer;
let admin: BrowserContext;

beforeAll(async () => {
  requireBuiltWebApp();
  browser = await launchChromium();
  // No worker: sends stay as stored (scheduled or queued), which is all these pages show.
  server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
  admin = await adminContext(browser, server);
  await createChannel(admin.request, server, "obras", "Obras");
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

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
const valueOf = (page: Page, name: string) => page.locator(`[name="${name}"]`).inputValue();

describe("templates in the Painel", () => {
  it("saves the compose form as a template, lists it on Modelos, uses and updates it from compose, and deletes it", async () => {
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/nova`);
    await heading(page, C.title).waitFor();
    // No template yet: no picker.
    expect(await page.getByRole("combobox", { name: T.compose.use }).count()).toBe(0);
    await field(page, C.fields.title).fill("Manutenção às 22h");
    await field(page, C.fields.body).fill("O sistema fica fora do ar por 30 minutos.");
    await field(page, C.fields.url).fill("/avisos");
    await field(page, C.fields.icon).fill("https://exemplo.com.br/icone.png");
    await page.getByRole("combobox", { name: C.fields.urgency }).click();
    await page.getByRole("option", { name: C.urgency.high }).click();

    // By keyboard: the button, then the dialog's name field (focused), Enter saves.
    await page.getByRole("button", { name: T.compose.save }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: T.dialog.title });
    await dialog.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.type("Manutenção");
    await page.keyboard.press("Enter");
    await page.getByTestId("notice").filter({ hasText: "Modelo “Manutenção” salvo." }).waitFor();
    const [saved] = (await adminCall<{ templates: { id: string }[] }>(admin.request, server, "GET", API_ROUTES.templates)).templates;
    expect(saved).toMatchObject({ name: "Manutenção", title: "Manutenção às 22h", url: "/avisos", icon: "https://exemplo.com.br/icone.png", urgency: "high", audience: { type: "all" } });

    // A second template with channels, made through the API.
    await adminCall(admin.request, server, "POST", API_ROUTES.templates, { name: "Obras da semana", title: "Obras na rua", ttl: 600, audience: { type: "channels", channels: ["obras"] } });

    await page.goto(`${server.baseUrl}/painel/modelos`);
    await heading(page, T.page.title).waitFor();
    expect(await navLabels(page)).toContain(T.nav);
    const rows = page.getByTestId("template-row");
    await rows.nth(1).waitFor();
    expect(await rows.evaluateAll((list) => list.map((row) => row.getAttribute("data-name")))).toEqual(["Manutenção", "Obras da semana"]);
    expect(await rows.nth(1).textContent()).toContain("Canal Obras");
    expect(await axeViolations(page)).toEqual([]);

    // Used from Modelos: compose filled with it.
    await page.getByRole("link", { name: "Usar o modelo Obras da semana" }).click();
    await heading(page, C.title).waitFor();
    await page.getByTestId("compose-source").getByText(T.source.template.replace("{{name}}", "Obras da semana")).waitFor();
    expect(await field(page, C.fields.title).inputValue()).toBe("Obras na rua");
    expect(await valueOf(page, "ttl")).toBe("600");
    expect(await page.getByRole("combobox", { name: C.fields.ttl }).textContent()).toBe("10 minutos");
    expect(await axeViolations(page)).toEqual([]);

    // "Usar modelo" in compose switches to the other one.
    await page.getByRole("combobox", { name: T.compose.use }).click();
    await page.getByRole("option", { name: "Manutenção" }).click();
    expect(await field(page, C.fields.title).inputValue()).toBe("Manutenção às 22h");
    expect(await field(page, C.fields.body).inputValue()).toBe("O sistema fica fora do ar por 30 minutos.");
    expect(await valueOf(page, "urgency")).toBe("high");

    // Changed and saved again: the template is updated (its name offered), not duplicated.
    await field(page, C.fields.title).fill("Manutenção às 23h");
    await page.getByRole("button", { name: T.compose.save }).click();
    await dialog.waitFor();
    expect(await dialog.getByRole("radio", { name: T.dialog.update.replace("{{name}}", "Manutenção") }).isChecked()).toBe(true);
    await dialog.getByRole("button", { name: T.dialog.save }).click();
    await page.getByTestId("notice").filter({ hasText: "Modelo “Manutenção” atualizado." }).waitFor();
    const templates = (await adminCall<{ templates: { name: string; title: string }[] }>(admin.request, server, "GET", API_ROUTES.templates)).templates;
    expect(templates.map((t) => [t.name, t.title])).toEqual([
      ["Manutenção", "Manutenção às 23h"],
      ["Obras da semana", "Obras na rua"],
    ]);

    // A taken name is said beside the field.
    await page.getByRole("button", { name: T.compose.save }).click();
    await dialog.getByRole("radio", { name: T.dialog.create }).check();
    await field(dialog, T.dialog.name).fill("obras da semana");
    await dialog.getByRole("button", { name: T.dialog.save }).click();
    await dialog.getByText(ptBR.errors.template_name_taken).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole("button", { name: ptBR.dashboard.common.cancel }).click();

    // Deleted from Modelos after confirmation.
    await page.goto(`${server.baseUrl}/painel/modelos`);
    await page.getByRole("button", { name: "Excluir o modelo Obras da semana" }).click();
    const confirm = page.getByRole("dialog", { name: T.page.deleteTitle });
    await confirm.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole("button", { name: T.page.delete }).click();
    await page.getByTestId("notice").filter({ hasText: "Modelo “Obras da semana” excluído." }).waitFor();
    expect(await page.getByTestId("template-row").count()).toBe(1);

    // On a phone (390×844): the name and the actions stay, nothing runs off the side.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    const row = page.getByTestId("template-row").first();
    await row.getByRole("link", { name: "Manutenção", exact: true }).waitFor();
    expect(await row.getByRole("link", { name: "Usar o modelo Manutenção" }).isVisible()).toBe(true);
    expect(await row.getByRole("button", { name: "Excluir o modelo Manutenção" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    // Eight axe runs on a shared 2-core machine: more than the default 30 s.
  }, 120_000);

  it("duplicates a past send into compose, which sends the copy", async () => {
    const original = await sendNotification(admin.request, server, {
      title: "Feira no sábado",
      body: "Das 8h às 13h",
      url: "https://exemplo.com.br/feira",
      image: "https://exemplo.com.br/feira.png",
      urgency: "low",
      ttl: 21_600,
      audience: { type: "channels", channels: ["obras"] },
    });
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/envios/${original.id}`);
    await heading(page, "Feira no sábado").waitFor();
    // Not scheduled: nothing to edit, but it can be copied.
    expect(await page.getByRole("link", { name: N.send.edit }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("link", { name: N.send.duplicate }).click();

    await heading(page, C.title).waitFor();
    await page.getByTestId("compose-source").getByRole("link", { name: "Feira no sábado" }).waitFor();
    expect(await field(page, C.fields.title).inputValue()).toBe("Feira no sábado");
    expect(await field(page, C.fields.body).inputValue()).toBe("Das 8h às 13h");
    expect(await field(page, C.fields.url).inputValue()).toBe("https://exemplo.com.br/feira");
    expect(await field(page, C.fields.image).inputValue()).toBe("https://exemplo.com.br/feira.png");
    expect(await valueOf(page, "urgency")).toBe("low");
    expect(await valueOf(page, "ttl")).toBe("21600");
    expect(await page.getByRole("radio", { name: C.when.now }).isChecked()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole("button", { name: C.submit.now }).click();
    await page.getByRole("dialog").getByRole("button", { name: C.submit.now }).click();
    await page.waitForURL((url) => /\/painel\/envios\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${original.id}`));
    const copyId = /\/painel\/envios\/(\d+)$/.exec(page.url())![1]!;
    const { notification: copy } = await adminCall<{ notification: Notification }>(admin.request, server, "GET", notificationPath(copyId));
    expect(copy).toMatchObject({ title: "Feira no sábado", body: "Das 8h às 13h", url: "https://exemplo.com.br/feira", image: "https://exemplo.com.br/feira.png", urgency: "low", ttl: 21_600, audience: { type: "channels", channels: ["obras"] } });
  });

  it("edits a scheduled send's content and time, and refuses the edit once the send is no longer scheduled", async () => {
    const at = Date.now() + 2 * 86_400_000;
    const scheduled = await sendNotification(admin.request, server, { title: "Reunião de pais", body: "Na escola", sendAt: new Date(at).toISOString() });
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/envios/${scheduled.id}`);
    await heading(page, "Reunião de pais").waitFor();
    await page.getByRole("link", { name: N.send.edit }).click();

    await heading(page, T.edit.title).waitFor();
    const wall = epochToWallTime(at, "America/Sao_Paulo");
    expect(await page.getByRole("radio", { name: C.when.later }).isChecked()).toBe(true);
    expect(await page.locator('input[name="date"]').inputValue()).toBe(wall.date);
    expect(await page.locator('input[name="time"]').inputValue()).toBe(wall.time);
    expect(await field(page, C.fields.title).inputValue()).toBe("Reunião de pais");
    // Editing is not the place to pick a template.
    expect(await page.getByRole("combobox", { name: T.compose.use }).count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await field(page, C.fields.title).fill("Reunião de pais (nova data)");
    await field(page, C.fields.body).fill("");
    await page.locator('input[name="time"]').fill("19:45");
    await page.getByRole("button", { name: T.edit.save }).click();
    await page.getByRole("dialog").getByRole("button", { name: T.edit.save }).click();
    await heading(page, "Reunião de pais (nova data)").waitFor();
    expect(new URL(page.url()).pathname).toBe(`/painel/envios/${scheduled.id}`);
    const { notification: edited } = await adminCall<{ notification: Notification }>(admin.request, server, "GET", notificationPath(scheduled.id));
    expect(edited).toMatchObject({ status: "scheduled", title: "Reunião de pais (nova data)", body: null });
    expect(epochToWallTime(Date.parse(edited.sendAt!), "America/Sao_Paulo")).toEqual({ date: wall.date, time: "19:45" });

    // Opened for editing, then cancelled elsewhere: saving says why, and nothing changes.
    await page.getByRole("link", { name: N.send.edit }).click();
    await heading(page, T.edit.title).waitFor();
    await adminCall(admin.request, server, "POST", `${notificationPath(scheduled.id)}/cancel`);
    await field(page, C.fields.title).fill("Tarde demais");
    await page.getByRole("button", { name: T.edit.save }).click();
    await page.getByRole("dialog").getByRole("button", { name: T.edit.save }).click();
    await page.getByTestId("compose-outcome").filter({ hasText: ptBR.errors.send_not_scheduled }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect((await adminCall<{ notification: Notification }>(admin.request, server, "GET", notificationPath(scheduled.id))).notification).toMatchObject({ status: "cancelled", title: "Reunião de pais (nova data)" });

    // Opened again: it says the send can no longer be edited, and the save button is off.
    await page.reload();
    await page.getByTestId("compose-source").getByRole("alert").waitFor();
    expect(await page.getByRole("button", { name: T.edit.save }).isDisabled()).toBe(true);
  }, 120_000);

  it("edits a scheduled send to people without showing or losing its people and their values", async () => {
    const scheduled = await sendNotification(admin.request, server, {
      title: "Olá {{nome}}",
      audience: { type: "users", users: [{ id: "ana", data: { nome: "Ana" } }, { id: "bia", data: { nome: "Bia" } }] },
      sendAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const page = await newPage();
    await page.goto(`${server.baseUrl}/painel/nova?editar=${scheduled.id}`);
    await heading(page, T.edit.title).waitFor();
    await page.getByTestId("compose-source").getByText(T.source.peopleKept_other.replace("{{formatted}}", "2")).waitFor();
    expect(await page.getByRole("radio", { name: C.people.people }).isChecked()).toBe(true);
    expect(await page.getByRole("textbox", { name: C.people.ids }).inputValue()).toBe("");
    expect(await axeViolations(page)).toEqual([]);

    await field(page, C.fields.title).fill("Oi, {{nome}}!");
    await page.getByRole("button", { name: T.edit.save }).click();
    await page.getByRole("dialog").getByRole("button", { name: T.edit.save }).click();
    await heading(page, "Oi, {{nome}}!").waitFor();
    const { notification } = await adminCall<{ notification: Notification }>(admin.request, server, "GET", notificationPath(scheduled.id));
    expect(notification).toMatchObject({ status: "scheduled", title: "Oi, {{nome}}!", audience: { type: "users", users: 2 } });
    const people = await server.database.db.selectFrom("notification_people").select(["person_id", "data"]).where("notification_id", "=", Number(scheduled.id)).orderBy("person_id").execute();
    expect(people.map((row) => [row.person_id, JSON.parse(row.data!)])).toEqual([
      ["ana", { nome: "Ana" }],
      ["bia", { nome: "Bia" }],
    ]);
  });
});
