import type { SinoNotice, UnblockHelpKey } from "../client/index.js";
import { h } from "./dom.js";
import type { Translate } from "./texts.js";

export interface NoticeDialog {
  readonly dialog: HTMLDialogElement;
  /** Shows the notice (modal: focus moves to "Fechar"); `onClose` runs once it is closed, however. */
  show(notice: SinoNotice, onClose: () => void): void;
  readonly open: boolean;
}

/**
 * What the bell tells the visitor after a click that did not simply work: how to unblock
 * notifications in this browser (pt-BR, per browser), or that the server failed. A modal dialog:
 * Escape or "Fechar" closes it, and focus returns to the bell.
 */
export function createNoticeDialog(doc: Document, t: Translate, helpKey: UnblockHelpKey): NoticeDialog {
  const title = h(doc, "h2", { id: "sino-notice-title" });
  const text = h(doc, "p", { id: "sino-notice-text" });
  const close = h(doc, "button", { type: "button", class: "primary" }, t("bell.close"));
  const dialog = h(
    doc,
    "dialog",
    { class: "notice", "aria-labelledby": "sino-notice-title", "aria-describedby": "sino-notice-text", "data-testid": "sino-notice" },
    title,
    text,
    h(doc, "div", { class: "actions" }, close),
  );
  let onClose: (() => void) | null = null;
  close.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    const done = onClose;
    onClose = null;
    done?.();
  });

  return {
    dialog,
    get open() {
      return dialog.open;
    },
    show(notice, closed) {
      const [titleKey, textKey] = NOTICE_TEXTS[notice];
      title.textContent = t(titleKey);
      text.textContent = t(notice === "blocked" ? helpKey : textKey);
      onClose = closed;
      if (!dialog.open) dialog.showModal();
      close.focus();
    },
  };
}

/** Title and text of each notice; "blocked" explains how to unblock in the visitor's browser. */
const NOTICE_TEXTS: Record<SinoNotice, readonly [string, string]> = {
  blocked: ["bell.blocked.title", "bell.blocked.other"],
  "enable-failed": ["bell.enable", "bell.failed.enable"],
  "disable-failed": ["bell.disable", "bell.failed.disableBrowser"],
  "disable-server-failed": ["bell.disable", "bell.failed.disable"],
  "enable-timeout": ["bell.enable", "bell.failed.timeout"],
};
