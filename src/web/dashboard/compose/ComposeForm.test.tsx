/**
 * The compose form's pieces with the real catalog: the schedule section as it renders, the
 * confirmation's words, the typed ids' checks, and the request an edit sends.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n.js";
import { ScheduleFields } from "./ScheduleFields.js";
import { initialComposeValues, toNotificationRequest } from "./compose-form.js";
import type { ComposeField } from "./compose-form.js";
import { editRequestOf, peopleOf } from "./compose-request.js";
import { audienceText, confirmTitle, peopleProblem } from "./compose-text.js";

const i18n = createI18n();
const t = i18n.t.bind(i18n);
const ZONE = "America/Sao_Paulo";
const NOW = Date.UTC(2026, 10, 26, 12);

function renderSchedule(when: "now" | "later", errors: Partial<Record<ComposeField, string>> = {}) {
  const values = { ...initialComposeValues(NOW, ZONE), when };
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <ScheduleFields values={values} set={() => undefined} errorOf={(field) => errors[field]} onBlur={() => undefined} summary="Sai em 26/11/2026 às 10:00 (horário de Brasília)." />
    </I18nextProvider>,
  );
}

describe("the schedule section", () => {
  it("offers now and later in a labelled radio group, and no date while it goes now", () => {
    const html = renderSchedule("now");
    expect(html).toContain('aria-labelledby="when-label"');
    expect(html).toContain(`>${t("dashboard.compose.when.now")}<`);
    expect(html).toContain(`>${t("dashboard.compose.when.later")}<`);
    expect(html).not.toContain('name="date"');
    expect(html).not.toContain('data-testid="schedule-summary"');
  });

  it("asks for a date and a time when it goes later, and says when that is", () => {
    const html = renderSchedule("later");
    expect(html).toMatch(/<input[^>]*name="date"[^>]*type="date"|<input[^>]*type="date"[^>]*name="date"/);
    expect(html).toMatch(/<input[^>]*name="time"|<input[^>]*type="time"/);
    expect(html).toContain('data-testid="schedule-summary">Sai em 26/11/2026 às 10:00 (horário de Brasília).<');
    expect(html).not.toContain('aria-invalid="true"');
  });

  it("shows a field's error under it, marked invalid", () => {
    const text = t("dashboard.compose.errors.dateRequired");
    expect(text).not.toBe("dashboard.compose.errors.dateRequired");
    const html = renderSchedule("later", { date: text });
    expect(html).toContain(text);
    expect(html.split('aria-invalid="true"').length - 1).toBe(1);
  });
});

describe("the people a send goes to", () => {
  it("takes one id a line, each once, trimmed, blank lines ignored", () => {
    expect(peopleOf(" ana \n\nbia\nana\n")).toEqual(["ana", "bia"]);
  });

  it("refuses none, too many and a malformed id, naming it", () => {
    expect(peopleProblem(t, [])).toBe(t("dashboard.compose.people.required"));
    expect(peopleProblem(t, ["ok-1", "bell\u0007"])).toBe(t("dashboard.compose.people.invalid", { id: "bell\u0007" }));
    expect(peopleProblem(t, ["ana", "bia"])).toBeUndefined();
  });
});

describe("the confirmation's words", () => {
  const size = { recipients: 1250, channels: [], sites: [], limited: 0, asleep: 0 };

  it("names everyone, or the channels, with the count", () => {
    expect(audienceText(t, size)).toBe(t("dashboard.compose.confirm.everyone", { recipients: t("dashboard.compose.confirm.recipients", { count: 1250, formatted: "1.250" }) }));
    expect(audienceText(t, { ...size, channels: [{ slug: "obras", name: "Obras" }] } as never)).toContain("Obras");
    expect(audienceText(t, null)).toBe("");
  });

  it("titles a later send as scheduled whatever its audience", () => {
    expect(confirmTitle(t, "later", size)).toBe(t("dashboard.compose.confirm.laterTitle"));
    expect(confirmTitle(t, "now", size)).toBe(t("dashboard.compose.confirm.nowTitle"));
  });
});

describe("the request an edit sends", () => {
  const values = { ...initialComposeValues(NOW, ZONE), title: "Obra na rua", body: "" };

  it("clears what the form left empty and sends now as this moment", () => {
    const request = toNotificationRequest(values, { timeZone: ZONE, audience: { type: "all" } });
    const edit = editRequestOf(request, { now: NOW, keepPeople: false });
    expect(edit).toMatchObject({ title: "Obra na rua", body: null, url: null, icon: null, image: null, actions: null, badge: null, data: null, renotify: false, silent: false });
    expect(edit.sendAt).toBe(new Date(NOW).toISOString());
    expect(edit).toHaveProperty("audience", { type: "all" });
  });

  it("leaves a people send's audience out when no new ids were typed (the server keeps them)", () => {
    const request = toNotificationRequest(values, { timeZone: ZONE, audience: { type: "users", users: [] } });
    expect(editRequestOf(request, { now: NOW, keepPeople: true })).not.toHaveProperty("audience");
  });
});
