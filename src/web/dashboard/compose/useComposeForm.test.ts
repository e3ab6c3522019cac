import { describe, expect, it } from "vitest";
import { initialComposeValues, validateCompose } from "./compose-form.js";
import { composeFieldError, composeFormReducer, initialComposeFormState } from "./useComposeForm.js";
import type { ComposeFormAction, ComposeFormState } from "./useComposeForm.js";

const NOW = Date.UTC(2026, 10, 26, 12);
const ZONE = "America/Sao_Paulo";
const context = { now: NOW, siteOrigin: "https://sino.exemplo.com.br", timeZone: ZONE };
const start = () => initialComposeFormState(initialComposeValues(NOW, ZONE));
const run = (state: ComposeFormState, ...actions: ComposeFormAction[]) => actions.reduce(composeFormReducer, state);
const errorOf = (state: ComposeFormState, field: Parameters<typeof composeFieldError>[2]) => composeFieldError(state, validateCompose(state.values, context), field);

describe("the compose form's state", () => {
  it("starts empty, untouched, with no errors and no outcome", () => {
    const state = start();
    expect(state.values.title).toBe("");
    expect(state.values.when).toBe("now");
    expect(state).toMatchObject({ touched: {}, submitted: false, serverErrors: {}, outcome: null });
  });

  it("hides the required title's error until the field is left or a send is tried", () => {
    expect(errorOf(start(), "title")).toBeUndefined();
    expect(errorOf(run(start(), { type: "touch", field: "title" }), "title")).toEqual({ key: "dashboard.compose.errors.titleRequired" });
    expect(errorOf(run(start(), { type: "submitted" }), "title")).toEqual({ key: "dashboard.compose.errors.titleRequired" });
    // Another field touched says nothing about the title.
    expect(errorOf(run(start(), { type: "touch", field: "body" }), "title")).toBeUndefined();
  });

  it("shows the custom data's error as it is typed, without a blur", () => {
    const state = run(start(), { type: "set", field: "data", value: "{not json" });
    expect(errorOf(state, "data")).toEqual({ key: "dashboard.compose.full.errors.dataInvalid" });
  });

  it("prefers the server's text, until that field changes", () => {
    const refused = run(start(), { type: "set", field: "title", value: "Promoção" }, { type: "serverErrors", errors: { title: "Título recusado.", body: "Texto recusado." } });
    expect(errorOf(refused, "title")).toEqual({ text: "Título recusado." });
    const edited = run(refused, { type: "set", field: "title", value: "Promoção de verão" });
    expect(errorOf(edited, "title")).toBeUndefined();
    expect(edited.serverErrors.body).toBe("Texto recusado.");
  });

  it("clears the time's server error with the date's (one moment), and any outcome on a change", () => {
    const refused = run(start(), { type: "serverErrors", errors: { date: "Data no passado.", time: "Hora no passado." } }, { type: "outcome", outcome: { severity: "error", text: "Falhou." } });
    const state = run(refused, { type: "set", field: "date", value: "2026-12-01" });
    expect(state.serverErrors.date).toBeUndefined();
    expect(state.serverErrors.time).toBeUndefined();
    expect(state.outcome).toBeNull();
    expect(state.values.date).toBe("2026-12-01");
  });

  it("loads a template's or a send's values afresh, forgetting the last attempt", () => {
    const tried = run(start(), { type: "touch", field: "title" }, { type: "submitted" }, { type: "serverErrors", errors: { url: "Link recusado." } }, { type: "outcome", outcome: { severity: "success", text: "Enviada." } });
    const values = { ...initialComposeValues(NOW, ZONE), title: "Do modelo", body: "Corpo do modelo" };
    expect(run(tried, { type: "load", values })).toEqual({ values, touched: {}, submitted: false, serverErrors: {}, outcome: null });
  });
});
