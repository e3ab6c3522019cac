/**
 * The compose form's full-notification pieces, rendered with the real catalog: action buttons,
 * advanced options, the push-size budget and each platform's preview.
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n.js";
import { ptBR } from "../../../shared/i18n/catalog.js";
import { ActionButtonsFields } from "./ActionButtonsFields.js";
import { AdvancedFields } from "./AdvancedFields.js";
import { NotificationPreview } from "./NotificationPreview.js";
import type { PreviewContent } from "./NotificationPreview.js";
import { PayloadBudgetIndicator } from "./PayloadBudgetIndicator.js";
import { composeBudget } from "./compose-budget.js";
import { initialComposeValues } from "./compose-form.js";
import type { ComposeValues } from "./compose-form.js";
import { PREVIEW_PLATFORMS } from "./preview-platforms.js";

const i18n = createI18n();
const F = ptBR.dashboard.compose.full;
const render = (element: ReactElement) => renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
const count = (html: string, needle: string) => html.split(needle).length - 1;
const values = (patch: Partial<ComposeValues> = {}): ComposeValues => ({ ...initialComposeValues(Date.UTC(2026, 10, 26, 12), "America/Sao_Paulo"), title: "Pedido enviado", ...patch });

describe("the action buttons' fields", () => {
  const renderActions = (actions: ComposeValues["actions"], errors: Record<string, string> = {}) =>
    render(<ActionButtonsFields actions={actions} onChange={() => undefined} errorOf={(field) => errors[field]} onBlur={() => undefined} expanded onExpandedChange={() => undefined} />);

  it("says how many buttons are set in the disclosure's summary, which controls its region", () => {
    const html = renderActions([{ label: "Ver pedido", url: "/pedido" }]);
    expect(html).toContain(`data-testid="actions-summary">1 botão<`);
    expect(html).toContain('aria-controls="compose-actions"');
    expect(html).toContain('aria-expanded="true"');
    expect(renderActions([])).toContain(">Nenhum botão<");
  });

  it("labels each row's fields by number, in a fieldset, with the limit as a hint", () => {
    const html = renderActions([{ label: "Ver", url: "/p" }, { label: "", url: "" }]);
    expect(html).toContain('name="actions.0.label"');
    expect(html).toContain('name="actions.1.url"');
    expect(html).toContain(">Texto do botão 2<");
    expect(count(html, "<fieldset")).toBeGreaterThanOrEqual(2);
    expect(html).toContain("Até 30 caracteres, em uma linha.");
    expect(html).toContain('aria-label="Remover o botão 1"');
  });

  it("disables adding a third button and says why", () => {
    const two = renderActions([{ label: "a", url: "/a" }, { label: "b", url: "/b" }]);
    expect(/<button[^>]*disabled=""[^>]*id="compose-actions-add"|<button[^>]*id="compose-actions-add"[^>]*disabled=""/.test(two)).toBe(true);
    expect(two).toContain(F.actions.limit);
    expect(renderActions([{ label: "a", url: "/a" }])).not.toContain(F.actions.limit);
  });

  it("shows a field's error in place of its hint, marked invalid", () => {
    const html = renderActions([{ label: "", url: "/a" }], { "actions.0.label": F.errors.actionLabelRequired });
    expect(html).toContain(F.errors.actionLabelRequired);
    expect(html).toContain('aria-invalid="true"');
  });
});

describe("the advanced options", () => {
  const renderAdvanced = (patch: Partial<ComposeValues>, collapseKey = "", errors: Record<string, string> = {}) =>
    render(
      <AdvancedFields
        values={values(patch)}
        set={() => undefined}
        errorOf={(field) => errors[field]}
        onBlur={() => undefined}
        collapseKey={collapseKey}
        onCollapseKeyChange={() => undefined}
        collapseKeyError={undefined}
        expanded
        onExpandedChange={() => undefined}
      />,
    );
  const renotifyInput = (html: string) => /<input[^>]*name="renotify"[^>]*>/.exec(html)?.[0] ?? "";

  it("offers 'notificar de novo' only with a collapse key, and says so", () => {
    const without = renderAdvanced({ renotify: true });
    expect(renotifyInput(without)).toContain("disabled");
    expect(renotifyInput(without)).not.toContain("checked");
    expect(without).toContain(F.advanced.renotifyNeedsKey);
    const withKey = renderAdvanced({ renotify: true }, "pedido-1");
    expect(renotifyInput(withKey)).not.toContain("disabled");
    expect(renotifyInput(withKey)).toContain("checked");
    expect(withKey).toContain(F.advanced.renotifyHint);
  });

  it("describes each switch by its hint", () => {
    const html = renderAdvanced({});
    for (const field of ["requireInteraction", "silent"]) {
      expect(new RegExp(`<input[^>]*aria-describedby="${field}-hint"[^>]*name="${field}"|<input[^>]*name="${field}"[^>]*aria-describedby="${field}-hint"`).test(html)).toBe(true);
    }
    expect(html).toContain(">Exigir interação<");
    expect(html).toContain(">Silenciosa<");
  });

  it("gives the data's size live when it is valid JSON, and its error when not", () => {
    expect(renderAdvanced({ data: '{ "tela": "pedido" }' })).toContain("JSON válido: 17 de 1.024 bytes.");
    const bad = renderAdvanced({ data: "{" }, "", { data: F.errors.dataInvalid });
    expect(bad).toContain(F.errors.dataInvalid);
    expect(bad).not.toContain("JSON válido");
  });
});

describe("the push-size budget", () => {
  it("says the bytes left of 4,096 while under", () => {
    const budget = composeBudget(values(), "", "https://sino.example");
    expect(budget.max).toBe(4_096);
    expect(budget.remaining).toBeGreaterThan(3_000);
    const html = render(<PayloadBudgetIndicator budget={budget} />);
    expect(html).toContain('data-over="false"');
    expect(html).toContain(`Restam ${budget.remaining.toLocaleString("pt-BR")} de 4.096 bytes.`);
    expect(/aria-live="polite"[^>]*data-testid="payload-budget-announcement"[^>]*><\/div>/.test(html)).toBe(true);
    expect(html).toContain('role="progressbar"');
  });

  it("grows with every field that goes out, and announces once it is over", () => {
    const small = composeBudget(values(), "", "https://sino.example");
    const withData = composeBudget(values({ data: JSON.stringify({ k: "x".repeat(900) }) }), "", "https://sino.example");
    // The data rides in both payloads; the declarative one (larger) carries it once.
    expect(withData.bytes - small.bytes).toBeGreaterThanOrEqual(900);
    const long = "https://loja.example/" + "p".repeat(1_900);
    const over = composeBudget(values({ url: long, image: long }), "", "https://sino.example");
    expect(over.remaining).toBeLessThan(0);
    const html = render(<PayloadBudgetIndicator budget={over} />);
    expect(html).toContain('data-over="true"');
    expect(html).toContain(`Passou ${(-over.remaining).toLocaleString("pt-BR")} bytes do limite de 4.096`);
    expect(html).toContain(`>${F.budget.overAnnouncement}</div>`);
  });
});

describe("the preview on each platform", () => {
  const content: PreviewContent = {
    title: "Pedido enviado",
    body: "Chega amanhã.",
    icon: "/icon.png",
    image: "/foto.png",
    badge: "/selo.png",
    actions: ["Ver pedido", "Rastrear"],
    appBadge: 3,
    site: "loja.example",
  };
  const preview = (platform: (typeof PREVIEW_PLATFORMS)[number]) => render(<NotificationPreview {...content} defaultPlatform={platform} />);

  it("has a tab per platform, the chosen one selected and tied to its panel", () => {
    const html = preview("windows");
    for (const platform of PREVIEW_PLATFORMS) expect(html).toContain(`>${F.preview.platform[platform]}<`);
    expect(/<button[^>]*aria-selected="true"[^>]*id="preview-tab-windows"/.test(html)).toBe(true);
    expect(html).toContain('role="tabpanel" id="preview-panel-windows" aria-labelledby="preview-tab-windows"');
  });

  it.each([
    ["android", { actions: 2, image: 1, badge: 1, appBadge: 0, options: 0 }],
    ["windows", { actions: 2, image: 1, badge: 0, appBadge: 0, options: 0 }],
    ["macos", { actions: 1, image: 0, badge: 0, appBadge: 0, options: 1 }],
    ["iphone", { actions: 0, image: 0, badge: 0, appBadge: 1, options: 0 }],
  ] as const)("%s draws what it shows", (platform, expected) => {
    const html = preview(platform);
    expect(html).toContain('data-testid="preview-title"');
    expect(html).toContain("Chega amanhã.");
    expect(count(html, 'data-testid="preview-action"')).toBe(expected.actions);
    expect(count(html, 'data-testid="preview-image"')).toBe(expected.image);
    expect(count(html, 'data-testid="preview-badge"')).toBe(expected.badge);
    expect(count(html, 'data-testid="preview-app-badge"')).toBe(expected.appBadge);
    expect(count(html, 'data-testid="preview-options"')).toBe(expected.options);
    expect(html).toContain(F.preview.note[platform]);
  });
});
