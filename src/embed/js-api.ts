import { CLICK_MESSAGE } from "../client/index.js";
import type { SinoChangeListener, SinoChannelChoice, SinoClick, SinoClickListener, SinoClient, SinoSnapshot, SinoStatus, Tags, TagValue } from "../client/index.js";

/** The event the document receives on every change (`detail` is the snapshot). */
export const CHANGE_EVENT = "sino:change";
/** Fired on the document once `window.Sino` exists (`detail` is the API). */
export const READY_EVENT = "sino:ready";
/**
 * Fired on `window` when a click on a Sino notification reaches this page (the window the service
 * worker focused or opened): `detail` is `{ notificationId, action: "open" | "1" | "2", url, data }`.
 */
export const CLICK_EVENT = CLICK_MESSAGE;

/**
 * `window.Sino`: the JS API for sites that draw their own UI (or add a second button):
 * `Sino.subscribe()`, `Sino.unsubscribe()`, `Sino.identify()`, `Sino.forget()`, `Sino.tag()`, `Sino.untag()`, `Sino.state`,
 * `Sino.on('change', fn)`, and the same
 * changes as `sino:change` events on `document`; `Sino.on('click', fn)` and `sino:click` events on
 * `window` for clicks on Sino's notifications.
 */
export interface SinoApi {
  readonly state: SinoStatus;
  readonly snapshot: SinoSnapshot;
  /** Resolves once the state is known (after the first check of the browser and the worker). */
  readonly ready: Promise<SinoSnapshot>;
  subscribe(): Promise<SinoSnapshot>;
  unsubscribe(): Promise<SinoSnapshot>;
  toggle(): Promise<SinoSnapshot>;
  loadChannels(): Promise<SinoChannelChoice>;
  setChannels(slugs: readonly string[]): Promise<readonly string[]>;
  /**
   * At sign-in: ties this browser to the host app's user (signature: hex HMAC-SHA256 from the
   * host's server). With `tags`, trusted tags for the person, covered by the same signature
   * (over `${userId}\n${canonical tags}`).
   */
  identify(userId: string, signature?: string | null, tags?: Tags): Promise<void>;
  /** A visitor tag on this browser's subscription (`Sino.tag("bairro", "Centro")`; `Sino.tag("vip")`): never a trusted tag. */
  tag(key: string, value?: TagValue): Promise<Tags>;
  untag(key: string): Promise<Tags>;
  /** At sign-out: the subscription stays, anonymous, with its channels. */
  forget(): Promise<void>;
  /** This browser's own quiet hours (`"22:00-07:00"`) or null; `setQuietHours(null)` clears them. */
  quietHours(): Promise<string | null>;
  setQuietHours(range: string | null): Promise<string | null>;
  on(event: "change", listener: SinoChangeListener): () => void;
  on(event: "click", listener: SinoClickListener): () => void;
  off(event: "change", listener: SinoChangeListener): void;
  off(event: "click", listener: SinoClickListener): void;
}

declare global {
  interface WindowEventMap {
    "sino:click": CustomEvent<SinoClick>;
  }
}

declare global {
  interface Window {
    Sino?: SinoApi;
  }
}

export function createSinoApi(client: SinoClient, doc: Document): SinoApi {
  client.on("change", (snapshot) => {
    doc.dispatchEvent(new CustomEvent(CHANGE_EVENT, { detail: snapshot }));
  });
  const win = doc.defaultView;
  if (win) {
    client.on("click", (click) => {
      win.dispatchEvent(new CustomEvent<SinoClick>(CLICK_EVENT, { detail: click }));
    });
  }
  const ready = client.start();
  return {
    get state() {
      return client.state;
    },
    get snapshot() {
      return client.getSnapshot();
    },
    ready,
    subscribe: () => client.subscribe(),
    unsubscribe: () => client.unsubscribe(),
    toggle: () => client.toggle(),
    loadChannels: () => client.loadChannels(),
    setChannels: (slugs) => client.setChannels(slugs),
    identify: (userId, signature, tags) => client.identify(userId, signature, tags),
    tag: (key, value) => client.tag(key, value),
    untag: (key) => client.untag(key),
    forget: () => client.forget(),
    quietHours: () => client.quietHours(),
    setQuietHours: (range) => client.setQuietHours(range),
    on: ((event: "change" | "click", listener: SinoChangeListener | SinoClickListener) =>
      event === "click" ? client.on("click", listener as SinoClickListener) : client.on("change", listener as SinoChangeListener)) as SinoApi["on"],
    off: ((event: "change" | "click", listener: SinoChangeListener | SinoClickListener) =>
      event === "click" ? client.off("click", listener as SinoClickListener) : client.off("change", listener as SinoChangeListener)) as SinoApi["off"],
  };
}
