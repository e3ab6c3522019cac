/**
 * The Painel's shared form pieces, rendered with the real catalog. MUI's dialogs render into a
 * portal, which a static render has not got: the theme keeps them in place (disablePortal).
 */
import { renderToStaticMarkup } from "react-dom/server";
import type { ReactElement } from "react";
import { I18nextProvider } from "react-i18next";
import { ThemeProvider, createTheme } from "@mui/material/styles";
import { describe, expect, it } from "vitest";
import { createI18n } from "../../i18n/create-i18n.js";
import { DialogForm, FormDialog } from "./FormDialog.js";
import { FormFields } from "./FormFields.js";
import { FormStack } from "./FormStack.js";
import { SecretOnceDialog } from "./SecretOnceDialog.js";

const i18n = createI18n();
const t = i18n.t.bind(i18n);
const theme = createTheme({ components: { MuiDialog: { defaultProps: { disablePortal: true, transitionDuration: 0 } } } });
const render = (element: ReactElement) =>
  renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <ThemeProvider theme={theme}>{element}</ThemeProvider>
    </I18nextProvider>,
  );
const noop = () => undefined;
const buttons = (html: string) => [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((m) => ({ attributes: m[1] ?? "", text: (m[2] ?? "").replace(/<[^>]+>/g, "") }));

describe("a dialog's form", () => {
  const form = (busy: boolean, error: string | null = null) =>
    render(
      <DialogForm titleId="t-title" title="Novo token" busy={busy} submitLabel="Criar token" onSubmit={noop} onCancel={noop}>
        <FormFields error={error}>
          <input name="name" />
        </FormFields>
      </DialogForm>,
    );

  it("is a form the page validates itself, titled by id, with Cancelar and the submit button", () => {
    const html = form(false);
    expect(html).toMatch(/^<form noValidate="">/);
    expect(html).toContain('id="t-title"');
    expect(html).toContain(">Novo token<");
    const [cancel, submit] = buttons(html);
    expect(cancel?.text).toBe(t("dashboard.common.cancel"));
    expect(cancel?.attributes).not.toContain("disabled");
    expect(submit?.text).toContain("Criar token");
    expect(submit?.attributes).toContain('type="submit"');
  });

  it("while busy, turns Cancelar off and the submit button into a spinner", () => {
    const [cancel, submit] = buttons(form(true));
    expect(cancel?.attributes).toContain("disabled");
    expect(submit?.attributes).toContain("disabled");
    expect(form(true)).toContain('role="progressbar"');
  });

  it("shows the form's own error above its fields, as an alert, and nothing when there is none", () => {
    const html = form(false, "Sem conexão com o servidor.");
    expect(html).toMatch(/role="alert"[^>]*>.*Sem conexão com o servidor\..*name="name"/s);
    expect(form(false)).not.toContain('role="alert"');
  });

  it("says its own cancel word when given one", () => {
    const html = render(
      <DialogForm titleId="f" title="Novo feed" busy={false} submitLabel="Adicionar" cancelLabel="Fechar" onSubmit={noop} onCancel={noop}>
        <span />
      </DialogForm>,
    );
    expect(buttons(html)[0]?.text).toBe("Fechar");
  });
});

describe("a form dialog", () => {
  it("is a full-width dialog labelled by its title", () => {
    const html = render(
      <FormDialog open onClose={noop} titleId="u-title" title="Novo usuário" busy={false} submitLabel="Criar" onSubmit={noop} maxWidth="xs">
        <span />
      </FormDialog>,
    );
    expect(html).toMatch(/role="dialog"[^>]*aria-labelledby="u-title"|aria-labelledby="u-title"[^>]*role="dialog"/);
    expect(html).toContain("MuiDialog-paperWidthXs");
    expect(html).toContain("MuiDialog-paperFullWidth");
  });

  it("renders nothing while closed", () => {
    const html = render(
      <FormDialog open={false} onClose={noop} titleId="u-title" title="Novo usuário" busy={false} submitLabel="Criar" onSubmit={noop}>
        <span />
      </FormDialog>,
    );
    expect(html).not.toContain('role="dialog"');
    expect(html).not.toContain("Novo usuário");
  });
});

describe("a secret shown once", () => {
  const texts = { title: "Token criado", onceTitle: "Copie agora", onceText: "Ele não será mostrado de novo.", label: "Token", copy: "Copiar", copied: "Copiado", copyFailed: "Não copiou", done: "Concluir" };
  const dialog = (secret: string | null) =>
    render(
      <SecretOnceDialog open titleId="s-title" secret={secret} texts={texts} testId="token-secret" describedBy="s-text" noticeId="s-text" onClose={noop}>
        <p id="s-text">Primeiro passo</p>
      </SecretOnceDialog>,
    );

  it("shows the first step until there is a secret", () => {
    const html = dialog(null);
    expect(html).toContain("Primeiro passo");
    expect(html).not.toContain("token-secret");
  });

  it("then shows it read-only, under the warning, with a labelled copy button and Concluir", () => {
    const html = dialog("sino_abc123");
    expect(html).not.toContain("Primeiro passo");
    expect(html).toContain('id="s-title"');
    expect(html).toContain(">Token criado<");
    expect(html).toMatch(/id="s-text"[^>]*>.*Copie agora.*Ele não será mostrado de novo\./s);
    const input = /<input[^>]*data-testid="token-secret"[^>]*>/.exec(html)?.[0] ?? "";
    expect(input).toContain('value="sino_abc123"');
    expect(input).toContain("readOnly");
    expect(input).toContain('spellCheck="false"');
    expect(html).toContain('aria-label="Copiar"');
    expect(buttons(html).at(-1)?.text).toBe("Concluir");
    expect(html).toMatch(/aria-describedby="s-text"/);
  });
});

describe("a page's form", () => {
  it("puts the error first, then the fields, the full-width submit button and the footer", () => {
    const html = render(
      <FormStack onSubmit={noop} error="E-mail ou senha incorretos." errorTestId="sign-in-error" busy={false} submitLabel="Entrar" aria-label="Entrar" footer={<a href="/voltar">Voltar</a>}>
        <input name="email" />
      </FormStack>,
    );
    expect(html).toMatch(/<form[^>]*noValidate=""[^>]*aria-label="Entrar"/);
    expect(html).toMatch(/data-testid="sign-in-error".*E-mail ou senha incorretos\..*name="email".*type="submit".*Entrar.*Voltar/s);
    expect(html).toContain("MuiButton-fullWidth");
  });
});
