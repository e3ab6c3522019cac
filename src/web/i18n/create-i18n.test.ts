import { describe, expect, it } from "vitest";
import { createI18n } from "./create-i18n.js";

describe("createI18n", () => {
  const i18n = createI18n();

  it("says a count of 0 with the catalog's zero form, not pt-BR's singular", () => {
    expect(i18n.t("subscribers.total", { count: 0, formatted: "0" })).toBe("Nenhum assinante");
    expect(i18n.t("sites.deleteText", { count: 0 })).toBe("Este site não tem inscritos. Isto não pode ser desfeito.");
  });

  it("keeps the singular for 1 and the plural from 2", () => {
    expect(i18n.t("subscribers.total", { count: 1, formatted: "1" })).toBe("1 assinante");
    expect(i18n.t("subscribers.total", { count: 1250, formatted: "1.250" })).toBe("1.250 assinantes");
  });
});
