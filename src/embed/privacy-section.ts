import { downloadMyData } from "../client/index.js";
import type { SinoClient } from "../client/index.js";
import { h } from "./dom.js";
import type { Translate } from "./texts.js";

/**
 * The subscriber's rights in the bell's panel (LGPD Art. 18): "Meus dados" downloads, as JSON,
 * everything Sino keeps about this browser; "Apagar meus dados" asks once, in place, then erases
 * and the client unsubscribes the browser (the bell turns off). Results are announced in a live
 * region; focus stays on a control that still exists.
 */
export function createPrivacySection(doc: Document, client: SinoClient, t: Translate): HTMLElement {
  const win = doc.defaultView ?? window;
  const status = h(doc, "p", { role: "status", "aria-live": "polite", "data-testid": "sino-privacy-status" });
  const exportButton = h(doc, "button", { type: "button", class: "secondary", "data-testid": "sino-my-data" }, t("embed.privacy.export"));
  const eraseButton = h(doc, "button", { type: "button", class: "secondary", "data-testid": "sino-erase-my-data" }, t("embed.privacy.erase"));
  const confirm = h(doc, "button", { type: "button", class: "primary", "data-testid": "sino-erase-confirm" }, t("embed.privacy.eraseConfirm"));
  const cancel = h(doc, "button", { type: "button", class: "secondary" }, t("embed.privacy.eraseCancel"));
  const question = h(
    doc,
    "div",
    { role: "group", "aria-labelledby": "sino-erase-question", hidden: true, "data-testid": "sino-erase-question" },
    h(doc, "p", { id: "sino-erase-question" }, t("embed.privacy.eraseQuestion")),
    h(doc, "div", { class: "actions" }, cancel, confirm),
  );
  const choices = h(doc, "div", { class: "actions" }, exportButton, eraseButton);
  const section = h(
    doc,
    "section",
    { class: "privacy", "aria-labelledby": "sino-privacy-title", "data-testid": "sino-privacy" },
    h(doc, "h3", { id: "sino-privacy-title" }, t("embed.privacy.title")),
    h(doc, "p", {}, t("embed.privacy.intro")),
    choices,
    question,
    status,
  );

  const busy = (on: boolean) => {
    for (const button of [exportButton, eraseButton, confirm, cancel]) button.disabled = on;
  };
  const ask = (open: boolean) => {
    question.hidden = !open;
    choices.hidden = open;
    (open ? cancel : eraseButton).focus();
  };

  exportButton.addEventListener("click", () => {
    busy(true);
    status.textContent = t("embed.privacy.exporting");
    client.exportMyData().then(
      (data) => {
        downloadMyData(win, data);
        status.textContent = t("embed.privacy.exported");
      },
      (error: unknown) => {
        console.error("Could not export this browser's data", error);
        status.textContent = t("embed.privacy.exportFailed");
      },
    ).finally(() => busy(false));
  });
  eraseButton.addEventListener("click", () => {
    status.textContent = "";
    ask(true);
  });
  cancel.addEventListener("click", () => ask(false));
  confirm.addEventListener("click", () => {
    busy(true);
    status.textContent = t("embed.privacy.erasing");
    client.eraseMyData().then(
      () => {
        question.hidden = true;
        status.textContent = t("embed.privacy.erased");
        status.setAttribute("tabindex", "-1");
        status.focus();
      },
      (error: unknown) => {
        console.error("Could not erase this browser's data", error);
        status.textContent = t("embed.privacy.eraseFailed");
        ask(false);
      },
    ).finally(() => busy(false));
  });

  return section;
}
