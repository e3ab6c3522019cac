import { describe, expect, it } from "vitest";
import { ptBR } from "../shared/i18n/catalog.js";
import { createTranslate } from "./texts.js";

describe("createTranslate", () => {
  const t = createTranslate();

  it("reads the same pt-BR catalog as the web app", () => {
    expect(t("bell.enable")).toBe(ptBR.bell.enable);
    expect(t("bell.blocked.firefox")).toBe(ptBR.bell.blocked.firefox);
    expect(t("embed.prompt.later")).toBe("Agora não");
  });

  it("interpolates {{name}} values", () => {
    expect(t("embed.channels.limit", { limit: 3 })).toBe("Escolha no máximo 3 canais.");
  });

  it("answers the key itself for an unknown key or a group", () => {
    expect(t("embed.nope")).toBe("embed.nope");
    expect(t("embed.channels")).toBe("embed.channels");
  });
});
