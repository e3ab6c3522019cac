import { describe, expect, it } from "vitest";
import { foldForSearch, notificationSearchText } from "./search-fold.js";

describe("foldForSearch", () => {
  it("drops accents and case, as Portuguese readers type", () => {
    expect(foldForSearch("Manutenção às 18h")).toBe("manutencao as 18h");
    expect(foldForSearch("AÇÃO Pública")).toBe("acao publica");
    expect(foldForSearch("pão, avó, você, pôr, trânsito, Ü")).toBe("pao, avo, voce, por, transito, u");
  });

  it("folds what only decomposes (ligatures, full width, dotted capital I)", () => {
    expect(foldForSearch("ﬁm")).toBe("fim");
    expect(foldForSearch("ＳＩＮＯ")).toBe("sino");
    expect(foldForSearch("İstanbul")).toBe("istanbul");
  });

  it("keeps what is not a letter with a mark", () => {
    expect(foldForSearch("50% off_now \\ 🎉")).toBe("50% off_now \\ 🎉");
  });

  it("searches a send by title and body", () => {
    expect(notificationSearchText("Manutenção", "Às 18h")).toBe("manutencao\nas 18h");
    expect(notificationSearchText("Só título", null)).toBe("so titulo");
  });
});
