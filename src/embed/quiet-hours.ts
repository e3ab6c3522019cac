import type { SinoClient } from "../client/index.js";
import { h } from "./dom.js";
import type { Translate } from "./texts.js";

export interface QuietHoursSection {
  readonly element: HTMLElement;
  /** Reads this browser's quiet hours from the server (the panel calls it on opening). */
  load(): void;
}

/**
 * The subscriber's own quiet hours in the embedded bell's panel: "Não me avise entre 22:00 e
 * 07:00", saved on its own (with proof of possession, through the client). Times are the
 * browser's own; delivery holds marketing pushes inside them.
 */
export function createQuietHoursSection(doc: Document, client: SinoClient, t: Translate): QuietHoursSection {
  const on = h(doc, "input", { type: "checkbox", "data-testid": "sino-quiet-on" });
  const from = h(doc, "input", { type: "time", required: true, "aria-label": t("embed.quietHours.from"), "data-testid": "sino-quiet-from" });
  const to = h(doc, "input", { type: "time", required: true, "aria-label": t("embed.quietHours.to"), "data-testid": "sino-quiet-to" });
  const status = h(doc, "p", { role: "status", "aria-live": "polite", "data-testid": "sino-quiet-status" });
  const save = h(doc, "button", { type: "button", class: "secondary", "data-testid": "sino-quiet-save" }, t("embed.quietHours.save"));
  const element = h(
    doc,
    "section",
    { class: "quiet", "aria-labelledby": "sino-quiet-title", "data-testid": "sino-quiet" },
    h(doc, "h3", { id: "sino-quiet-title" }, t("embed.quietHours.title")),
    h(doc, "label", { class: "channel" }, on, h(doc, "span", {}, t("embed.quietHours.enable"))),
    h(doc, "p", { class: "times" }, from, h(doc, "span", {}, t("embed.quietHours.and")), to),
    status,
    save,
  );
  const sync = () => {
    from.disabled = to.disabled = !on.checked;
  };
  on.addEventListener("change", sync);

  function show(range: string | null): void {
    on.checked = range !== null;
    const [start = "22:00", end = "07:00"] = range?.split("-") ?? [];
    from.value = start;
    to.value = end;
    sync();
  }

  save.addEventListener("click", () => {
    const range = on.checked ? `${from.value}-${to.value}` : null;
    save.disabled = true;
    client.setQuietHours(range).then(
      (stored) => {
        show(stored);
        status.textContent = stored === null ? t("embed.quietHours.cleared") : t("embed.quietHours.saved", { from: from.value, to: to.value });
      },
      (error: { code?: string }) => {
        status.textContent = t(error.code === "quiet_hours_invalid" ? "embed.quietHours.invalid" : "embed.quietHours.saveFailed");
      },
    ).finally(() => (save.disabled = false));
  });

  return {
    element,
    load() {
      status.textContent = "";
      // Off (no subscription yet): nothing to read, the section stays as it was.
      client.quietHours().then(show, () => show(null));
    },
  };
}
