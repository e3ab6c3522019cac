import { describe, expect, it } from "vitest";
import { parseActionsHeader } from "./actions-header.js";

describe("parseActionsHeader (ntfy's simple format)", () => {
  it("reads two view actions separated by a semicolon", () => {
    expect(parseActionsHeader("view, Ver mapa, https://mapas.example.org/a; view, Avisos, /avisos")).toEqual({
      ok: true,
      actions: [
        { label: "Ver mapa", url: "https://mapas.example.org/a" },
        { label: "Avisos", url: "/avisos" },
      ],
    });
  });

  it("takes the key=value form, quoted labels with commas, and ignores ntfy's clear option", () => {
    expect(parseActionsHeader('action=view, label="Sim, quero", url=https://x.example/q?a=1, clear=true; View, \'Não\', /nao')).toEqual({
      ok: true,
      actions: [
        { label: "Sim, quero", url: "https://x.example/q?a=1" },
        { label: "Não", url: "/nao" },
      ],
    });
  });

  it("refuses ntfy's http and broadcast actions, which Web Push cannot do", () => {
    expect(parseActionsHeader("http, Fechar, https://api.example/close, method=PUT")).toEqual({ ok: false });
    expect(parseActionsHeader("broadcast, Foto")).toEqual({ ok: false });
    expect(parseActionsHeader("view, a, /b, extra")).toEqual({ ok: false });
  });

  it("leaves a missing label or link for the schema to name", () => {
    expect(parseActionsHeader("view, Só rótulo")).toEqual({ ok: true, actions: [{ label: "Só rótulo", url: "" }] });
  });
});
