import { channelSaveErrorMessage, exceedsChannelLimit } from "../client/index.js";
import type { PublicChannel, SinoChannelChoice, SinoClient } from "../client/index.js";
import { h } from "./dom.js";
import { createQuietHoursSection } from "./quiet-hours.js";
import type { Translate } from "./texts.js";
import { createPrivacySection } from "./privacy-section.js";

export interface ChannelPicker {
  readonly dialog: HTMLDialogElement;
  /** Opens it (modal), loads the channels, focuses the first one; focus returns to `opener` on close. */
  open(opener: HTMLElement): void;
}

/**
 * The channel choice (issue 5) for the embedded bell: one checkbox per active channel, the limit,
 * Save/Cancel. A modal dialog: the browser keeps focus inside, Escape cancels, and focus goes
 * back to the channels button. Nothing is stored until "Salvar"; the server stores all or nothing.
 */
export function createChannelPicker(doc: Document, client: SinoClient, t: Translate): ChannelPicker {
  const status = h(doc, "p", { role: "status", "aria-live": "polite" });
  const limitText = h(doc, "p", { class: "error", id: "sino-channels-limit", "aria-live": "polite" });
  const list = h(doc, "fieldset", { "aria-labelledby": "sino-channels-title" });
  const save = h(doc, "button", { type: "button", class: "primary" }, t("embed.channels.save"));
  const cancel = h(doc, "button", { type: "button", class: "secondary" }, t("embed.channels.cancel"));
  const organisation = h(doc, "div", { class: "organisation", "data-testid": "sino-organisation", hidden: true });
  const quiet = createQuietHoursSection(doc, client, t);
  const dialog = h(
    doc,
    "dialog",
    { class: "picker", "aria-labelledby": "sino-channels-title", "data-testid": "sino-channels" },
    organisation,
    h(doc, "h2", { id: "sino-channels-title" }, t("embed.channels.title")),
    h(doc, "p", {}, t("embed.channels.intro")),
    status,
    list,
    limitText,
    h(doc, "div", { class: "actions" }, cancel, save),
    createPrivacySection(doc, client, t),
    quiet.element,
  );
  let opener: HTMLElement | null = null;
  let limit: number | null = null;
  let available: readonly PublicChannel[] = [];
  let saving = false;

  const checked = (): string[] =>
    [...list.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].filter((box) => box.checked).map((box) => box.value);

  function refresh(): void {
    const over = exceedsChannelLimit(checked(), limit);
    limitText.textContent = over ? t("embed.channels.limit", { limit: limit ?? 0 }) : "";
    save.disabled = saving || over || available.length === 0;
  }

  function render(chosen: readonly string[]): void {
    list.replaceChildren(
      ...available.map((channel) => {
        const box = h(doc, "input", { type: "checkbox", value: channel.slug, "data-slug": channel.slug });
        box.checked = chosen.includes(channel.slug);
        box.addEventListener("change", refresh);
        const text = h(doc, "span", {}, h(doc, "span", { class: "channel-name" }, channel.name));
        if (channel.description) text.append(h(doc, "span", { class: "channel-description" }, channel.description));
        return h(doc, "label", { class: "channel" }, box, text);
      }),
    );
  }

  async function load(): Promise<void> {
    status.textContent = t("embed.channels.loading");
    list.replaceChildren();
    available = [];
    refresh();
    try {
      const choice = await client.loadChannels();
      available = choice.available;
      limit = choice.limit;
      showOrganisation(choice.organisation);
      status.textContent = available.length === 0 ? t("embed.channels.empty") : "";
      render(choice.chosen);
      list.querySelector("input")?.focus();
    } catch (error) {
      console.error("Could not load the channels", error);
      status.textContent = t("embed.channels.loadFailed");
    }
    refresh();
  }

  /** Whose notices these are: the organisation's logo and name, and its accent on the buttons. */
  function showOrganisation(identity: SinoChannelChoice["organisation"]): void {
    const named = identity !== null && (identity.name !== null || identity.logoUrl !== null);
    organisation.hidden = !named;
    if (identity?.accentColor) dialog.style.setProperty("--sino-accent", identity.accentColor);
    if (!named) return;
    const logo = identity.logoUrl === null ? [] : [h(doc, "img", { src: identity.logoUrl, alt: "", width: "28", height: "28" })];
    // A logo that fails to load is left out rather than shown broken.
    for (const img of logo) img.addEventListener("error", () => img.remove(), { once: true });
    organisation.replaceChildren(...logo, h(doc, "span", {}, identity.name ?? t("embed.channels.title")));
  }

  save.addEventListener("click", () => {
    saving = true;
    refresh();
    client.setChannels(checked()).then(
      () => dialog.close(),
      (error: unknown) => {
        status.textContent = channelSaveErrorMessage(error) ?? t("embed.channels.saveFailed");
      },
    ).finally(() => {
      saving = false;
      refresh();
    });
  });
  cancel.addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    opener?.focus();
    opener = null;
  });

  return {
    dialog,
    open(from) {
      opener = from;
      if (!dialog.open) dialog.showModal();
      cancel.focus();
      void load();
      quiet.load();
    },
  };
}
