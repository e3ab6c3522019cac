import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { DashboardApiError } from "../api/dashboard-api-error.js";
import type { SegmentCount } from "../api/segments-api.js";
import { createI18n } from "../../i18n/create-i18n.js";
import { SegmentEditor } from "./SegmentEditor.js";
import type { SegmentDraft } from "./segment-editor.js";
import type { SegmentCountState } from "./useSegmentCount.js";

const i18n = createI18n();
const draft = (expression: string): SegmentDraft => ({ expression, tagKinds: "trusted" });

function render(value: SegmentDraft, count: SegmentCountState): { html: string; status: string } {
  const html = renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <SegmentEditor value={value} onChange={() => undefined} count={count} showHelp={false} />
    </I18nextProvider>,
  );
  const status = /<p[^>]*data-testid="segment-count"[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? "";
  return { html, status };
}

const counted = (patch: Partial<SegmentCount> = {}): SegmentCount => ({ subscriptions: 1250, people: 1, expression: "plano = premium", tree: { tag: "plano", op: "eq", value: "premium" }, tagKinds: "trusted", unknownChannels: [], ...patch });

describe("the segment editor", () => {
  it("says what to do while the expression is empty, politely live", () => {
    const { html, status } = render(draft(""), { status: "empty" });
    expect(status).toBe("Escreva uma expressão para ver quantos ela alcança.");
    expect(html.includes('role="status" aria-live="polite" data-testid="segment-count"')).toBe(true);
  });

  it("shows the count in pt-BR plurals and the expression as the server understood it", () => {
    const { html, status } = render(draft("plano=premium"), { status: "ready", count: counted(), pending: false, draft: draft("plano=premium") });
    expect(status).toBe("1.250 inscrições · 1 pessoa");
    expect(html.includes("Entendida como:")).toBe(true);
    expect(html.includes("plano = premium</code>")).toBe(true);
    expect(html.includes("segment-unknown-channels")).toBe(false);
  });

  it("warns of channels that do not exist", () => {
    const { html } = render(draft("canal = obrass"), { status: "ready", count: counted({ unknownChannels: ["obrass"] }), pending: false, draft: draft("canal = obrass") });
    expect(html.includes("Não há canal obrass: essa condição não alcança ninguém.")).toBe(true);
  });

  it("puts the position in front of a refusal that does not name it, and draws the caret under the refused text", () => {
    const error = new DashboardApiError(400, "segment_syntax", "Esperava um valor.", undefined, 8);
    const refused = draft("plano = ");
    const { html, status } = render(draft("plano = x"), { status: "error", error, pending: true, draft: refused });
    expect(status).toBe("Posição 9: Esperava um valor.");
    expect(html.includes('aria-invalid="true"')).toBe(true);
    // Booleans, not toMatch: a failure would print the whole page of inline styles.
    expect(/<pre[^>]*aria-hidden="true"[^>]*data-testid="segment-error-caret"[^>]*>plano = \n {8}\^<\/pre>/.test(html)).toBe(true);
  });

  it("keeps the server's message as is when it already names the position", () => {
    const error = new DashboardApiError(400, "segment_syntax", "Expressão inválida. Na posição 9: esperava um valor.", undefined, 8);
    const { status } = render(draft("plano = "), { status: "error", error, pending: false, draft: draft("plano = ") });
    expect(status).toBe("Expressão inválida. Na posição 9: esperava um valor.");
  });

  it("says no position for a refusal of the whole expression (a limit)", () => {
    const error = new DashboardApiError(400, "segment_too_deep", "A expressão passa de 10 níveis.");
    const { html, status } = render(draft("((((x"), { status: "error", error, pending: false, draft: draft("((((x") });
    expect(status).toBe("A expressão passa de 10 níveis.");
    expect(html.includes("segment-error-caret")).toBe(false);
  });
});
