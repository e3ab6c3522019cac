import type { SoftPromptChoice } from "../client/index.js";
import { h } from "./dom.js";
import type { Translate } from "./texts.js";

/** The client's soft-prompt choice: the dialog calls one of its two answers. */
export type PromptChoice = SoftPromptChoice;

export interface SoftPromptDialog {
  readonly dialog: HTMLDialogElement;
  open(choice: PromptChoice): void;
  readonly isOpen: boolean;
}

/**
 * The pt-BR soft prompt: asks in the page first, so the browser's own dialog is shown only to
 * people who said yes. Non-modal (the page stays usable), but a real dialog: labelled, focus on
 * its first button when it opens and back where it was when it closes, Escape = "Agora não".
 */
export function createSoftPromptDialog(doc: Document, t: Translate): SoftPromptDialog {
  const accept = h(doc, "button", { type: "button", class: "primary" }, t("embed.prompt.accept"));
  const later = h(doc, "button", { type: "button", class: "secondary" }, t("embed.prompt.later"));
  const dialog = h(
    doc,
    "dialog",
    { class: "prompt", "aria-labelledby": "sino-prompt-title", "aria-describedby": "sino-prompt-text", "data-testid": "sino-prompt" },
    h(doc, "h2", { id: "sino-prompt-title" }, t("embed.prompt.title")),
    h(doc, "p", { id: "sino-prompt-text" }, t("embed.prompt.text")),
    h(doc, "div", { class: "actions" }, later, accept),
  );
  let choice: PromptChoice | null = null;
  let returnFocus: HTMLElement | null = null;

  function finish(pick: (c: PromptChoice) => void): void {
    const current = choice;
    choice = null;
    dialog.close();
    // Back where the visitor was, unless the page moved focus meanwhile.
    returnFocus?.focus?.();
    returnFocus = null;
    if (current) pick(current);
  }

  accept.addEventListener("click", () => finish((c) => c.accept()));
  later.addEventListener("click", () => finish((c) => c.later()));
  dialog.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      event.preventDefault();
      finish((c) => c.later());
    }
  });

  return {
    dialog,
    get isOpen() {
      return dialog.open;
    },
    open(next) {
      choice = next;
      const active = doc.activeElement;
      returnFocus = active instanceof HTMLElement && active !== doc.body ? active : null;
      dialog.show();
      accept.focus();
    },
  };
}
