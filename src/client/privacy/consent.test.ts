import { describe, expect, it } from "vitest";
import { ptBR } from "../../shared/i18n/catalog.js";
import { consentInputSchema } from "../../shared/api/consent.js";
import { CONSENT_CATALOGUE_VERSION, consentFor } from "./consent.js";

describe("the consent the bell sends", () => {
  it("carries the exact text shown where the visitor said yes", () => {
    expect(consentFor("bell")).toEqual({ source: "bell", text: ptBR.bell.enable, version: CONSENT_CATALOGUE_VERSION });
    expect(consentFor("soft_prompt").text).toBe(`${ptBR.embed.prompt.title}\n${ptBR.embed.prompt.text}\n${ptBR.embed.prompt.accept}`);
  });

  it("names the catalogue's version by a hash of the bell's texts, which the server accepts", () => {
    expect(CONSENT_CATALOGUE_VERSION).toMatch(/^pt-BR-[0-9a-f]{8}$/);
    for (const source of ["bell", "soft_prompt"] as const) expect(consentInputSchema.safeParse(consentFor(source)).success).toBe(true);
  });
});
