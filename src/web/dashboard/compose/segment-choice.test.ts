import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n.js";
import { narrowedToSites, segmentAudienceOf, segmentAudienceText, segmentProblem } from "./segment-choice.js";
import type { SegmentChoice } from "./segment-choice.js";

const t = createI18n().t;
const saved: SegmentChoice = { source: "saved", segmentId: "12", draft: { expression: "", tagKinds: "trusted" } };
const written: SegmentChoice = { source: "written", segmentId: "", draft: { expression: "tem vip ou plano = premium", tagKinds: "all" } };

describe("compose's segment audience", () => {
  it("sends a saved segment by id (read when the send starts) and a written one as its text with its tag kinds", () => {
    expect(segmentAudienceOf(saved, {})).toEqual({ type: "segment", segment: "12" });
    expect(segmentAudienceOf(written, { sites: ["2"] })).toEqual({ type: "segment", expression: "tem vip ou plano = premium", tagKinds: "all", sites: ["2"] });
  });

  it("counts the chosen sites in the language itself, keeping the expression's own precedence", () => {
    expect(narrowedToSites("tem vip ou plano = premium", [])).toBe("tem vip ou plano = premium");
    expect(narrowedToSites("tem vip ou plano = premium", ["2", "5"])).toBe("(tem vip ou plano = premium)\ne site in (2, 5)");
  });

  it("asks for a saved segment or an expression before anything is counted", () => {
    expect(segmentProblem(t, { ...saved, segmentId: "" })).toBe("Escolha um segmento.");
    expect(segmentProblem(t, { ...written, draft: { expression: "  ", tagKinds: "trusted" } })).toBe("Escreva a expressão do segmento.");
    expect(segmentProblem(t, saved)).toBeUndefined();
  });

  it("names the audience in the confirmation with its count, and the sites it is narrowed to", () => {
    expect(segmentAudienceText(t, { name: "Premium", subscriptions: 1250, people: 980, sites: 0 })).toBe("o segmento “Premium” (1.250 inscrições · 980 pessoas)");
    expect(segmentAudienceText(t, { name: null, subscriptions: 1, people: 1, sites: 2 })).toBe("quem atende à expressão escrita nos 2 sites escolhidos (1 inscrição · 1 pessoa)");
  });
});
