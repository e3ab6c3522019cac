import type { SinoClient, SinoSnapshot, UnblockHelpKey } from "../client/index.js";
import { createChannelPicker } from "./channel-picker.js";
import { h } from "./dom.js";
import { icon, ICON_PATHS } from "./icons.js";
import { createNoticeDialog } from "./notice-dialog.js";
import { createSoftPromptDialog } from "./soft-prompt-dialog.js";
import type { PromptChoice } from "./soft-prompt-dialog.js";
import { BELL_CSS } from "./styles.js";
import type { Translate } from "./texts.js";

export const BELL_TAG = "sino-bell";

/** What `<sino-bell>` offers beyond HTMLElement (the entry script and the soft prompt use it). */
export interface SinoBellElement extends HTMLElement {
  openSoftPrompt(choice: PromptChoice): void;
  readonly softPromptOpen: boolean;
}

/** The bells on the page; notices show in the one last clicked (or the first). */
export interface BellRegistry {
  readonly bells: Set<SinoBellElement>;
  lastUsed: SinoBellElement | null;
}

export interface BellDeps {
  client: SinoClient;
  t: Translate;
  helpKey: UnblockHelpKey;
  registry: BellRegistry;
}

/**
 * Defines `<sino-bell>` (once per page): the bell of seed-spec §2/§4 as a Web Component in a shadow
 * root. A real `<button>` named "Habilitar Notificações" / "Desabilitar Notificações" (pressed when
 * on), a tooltip with the same text on hover and keyboard focus (Escape hides it), the channels
 * button while on, and the notice, channel and soft-prompt dialogs.
 */
export function defineSinoBell(win: Window, deps: BellDeps): void {
  if (win.customElements.get(BELL_TAG)) return;
  const { client, t, registry } = deps;

  // The page's own HTMLElement (a custom element must extend the constructor of its realm).
  const Base = (win as Window & typeof globalThis).HTMLElement;

  class SinoBell extends Base implements SinoBellElement {
    readonly #root: ShadowRoot;
    readonly #bell: HTMLButtonElement;
    readonly #tip: HTMLSpanElement;
    readonly #channels: HTMLButtonElement;
    readonly #notice;
    readonly #prompt;
    readonly #region: HTMLDivElement;
    #stop: (() => void) | null = null;
    #icon: "on" | "off" | null = null;

    constructor() {
      super();
      const doc = this.ownerDocument;
      this.#root = this.attachShadow({ mode: "open" });
      adoptStyles(win, this.#root);
      this.#bell = h(doc, "button", { type: "button", class: "icon-button bell", part: "button" });
      this.#tip = h(doc, "span", { class: "tip", role: "tooltip", id: "sino-tip", hidden: true });
      this.#channels = h(
        doc,
        "button",
        { type: "button", class: "icon-button channels", "aria-label": t("embed.channels.open"), "aria-haspopup": "dialog", hidden: true },
        icon(doc, ICON_PATHS.channels),
      );
      this.#notice = createNoticeDialog(doc, t, deps.helpKey);
      this.#prompt = createSoftPromptDialog(doc, t);
      const picker = createChannelPicker(doc, client, t);
      this.#region = h(
        doc,
        "div",
        { class: "root" },
        h(doc, "div", { class: "bar" }, this.#bell, this.#channels, this.#tip),
        h(doc, "span", { id: "sino-blocked", class: "sr-only" }, t("embed.blockedStatus")),
        this.#notice.dialog,
        this.#prompt.dialog,
        picker.dialog,
      );
      this.#root.append(this.#region);

      this.#bell.addEventListener("click", () => {
        registry.lastUsed = this;
        if (client.getSnapshot().busy) return;
        void client.toggle();
      });
      this.#channels.addEventListener("click", () => picker.open(this.#channels));
      const show = () => (this.#tip.hidden = false);
      const hide = () => (this.#tip.hidden = true);
      this.#bell.addEventListener("mouseenter", show);
      this.#bell.addEventListener("mouseleave", hide);
      this.#bell.addEventListener("focus", show);
      this.#bell.addEventListener("blur", hide);
      // WCAG 1.4.13: a tooltip can be dismissed without moving the pointer or focus.
      this.#bell.addEventListener("keydown", (event) => {
        if (event.key === "Escape") hide();
      });
    }

    connectedCallback(): void {
      registry.bells.add(this);
      // A floating bell sits outside the page's landmarks: it gets its own, named (axe "region").
      if (this.hasAttribute("floating")) {
        this.#region.setAttribute("role", "complementary");
        this.#region.setAttribute("aria-label", t("embed.region"));
      } else {
        this.#region.removeAttribute("role");
        this.#region.removeAttribute("aria-label");
      }
      this.#stop = client.on("change", (snapshot) => this.#render(snapshot));
      this.#render(client.getSnapshot());
    }

    disconnectedCallback(): void {
      registry.bells.delete(this);
      if (registry.lastUsed === this) registry.lastUsed = null;
      this.#stop?.();
      this.#stop = null;
    }

    get softPromptOpen(): boolean {
      return this.#prompt.isOpen;
    }

    openSoftPrompt(choice: PromptChoice): void {
      this.#prompt.open(choice);
    }

    #render(snapshot: SinoSnapshot): void {
      const { status, busy } = snapshot;
      this.setAttribute("state", status);
      const on = status === "on";
      const label = on ? t("bell.disable") : t("bell.enable");
      const bell = this.#bell;
      bell.setAttribute("aria-label", label);
      bell.setAttribute("aria-pressed", String(on));
      bell.setAttribute("aria-busy", String(busy));
      bell.setAttribute("data-state", status);
      // aria-disabled rather than disabled: the button keeps keyboard focus while a click is handled.
      if (busy) bell.setAttribute("aria-disabled", "true");
      else bell.removeAttribute("aria-disabled");
      if (status === "denied") bell.setAttribute("aria-describedby", "sino-blocked");
      else bell.removeAttribute("aria-describedby");
      const wanted = on ? "on" : "off";
      if (this.#icon !== wanted) {
        bell.replaceChildren(icon(this.ownerDocument, ICON_PATHS[wanted]));
        this.#icon = wanted;
      }
      this.#tip.textContent = label;
      this.#channels.hidden = !on;

      const owner = registry.lastUsed ?? registry.bells.values().next().value;
      if (snapshot.notice !== null && owner === this && !this.#notice.open) {
        this.#notice.show(snapshot.notice, () => {
          client.dismissNotice();
          bell.focus();
        });
      }
    }
  }

  win.customElements.define(BELL_TAG, SinoBell);
}

/**
 * Constructable stylesheets are not subject to a site's CSP `style-src` (an inline `<style>` is);
 * a `<style>` element is the fallback for browsers without them.
 */
function adoptStyles(win: Window, root: ShadowRoot): void {
  const Sheet = (win as Window & { CSSStyleSheet?: typeof CSSStyleSheet }).CSSStyleSheet;
  if (Sheet && "adoptedStyleSheets" in root && "replaceSync" in Sheet.prototype) {
    const sheet = new Sheet();
    sheet.replaceSync(BELL_CSS);
    root.adoptedStyleSheets = [sheet];
    return;
  }
  const style = root.ownerDocument.createElement("style");
  style.textContent = BELL_CSS;
  root.append(style);
}
