import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { ErasedData, MyData, SinoChannelChoice, SinoClick, SinoClient, SinoNotice, SinoSnapshot, SinoStatus, Tags, TagValue, UnavailableReason } from "../../../src/client/index.js";
import { useSinoClient } from "./sino-context.js";
import type { SinoToken } from "./sino-slice.js";

export interface UseSino {
  /** `checking` → `hidden` | `off` | `denied` | `on` (see the embed core's `SinoStatus`). */
  state: SinoStatus;
  /** Why the bell is hidden (`insecure`, `unsupported`, `webview`, `ios-browser-tab`); null unless `hidden`. */
  hiddenReason: UnavailableReason | null;
  /** A subscribe or unsubscribe is in progress; a second one is ignored until it ends. */
  busy: boolean;
  /** The token as the embed core holds it; the host's store gets the same through `setToken`. */
  token: SinoToken | null;
  /** The channels (slugs) this browser receives; null when off or unknown. */
  channels: readonly string[] | null;
  notice: SinoNotice | null;
  /** Off → on: asks the browser's permission if needed, registers with Sino. */
  subscribe(): Promise<void>;
  /** On → off, in the browser and on Sino's server. */
  unsubscribe(): Promise<void>;
  toggle(): Promise<void>;
  /** The channels one may pick, the limit, and the current choice. */
  loadChannels(): Promise<SinoChannelChoice>;
  /** Replaces the choice on the server; rejects with the core's `ApiRequestError` (pt-BR code). */
  setChannels(slugs: readonly string[]): Promise<readonly string[]>;
  /**
   * Ties this browser to a person of your app (at sign-in); `signature` is the hex HMAC-SHA256 of
   * the id with the site's identity secret, from your server. Rejects with the core's
   * `ApiRequestError` (`code` = the API's, e.g. `user_signature_invalid`).
   */
  identify(userId: string, signature?: string | null, tags?: Tags): Promise<void>;
  /**
   * A visitor tag on this browser's subscription (`tag("bairro", "Centro")`, `tag("vip")`): the
   * page's word, never a trusted tag. Rejects with `ApiRequestError` (`not_subscribed` while off,
   * `visitor_tags_disabled` where the site turned them off). Resolves with all visitor tags.
   */
  tag(key: string, value?: TagValue): Promise<Tags>;
  untag(key: string): Promise<Tags>;
  /** Makes the subscription anonymous again (at sign-out); its channels stay. */
  forget(): Promise<void>;
  /** This browser's own quiet hours (`HH:MM-HH:MM`, its time zone) or null; rejects with `not_subscribed` while off. */
  quietHours(): Promise<string | null>;
  /** Sets them (null clears); resolves with what Sino stored; rejects with `quiet_hours_invalid` for a bad range. */
  setQuietHours(range: string | null): Promise<string | null>;
  dismissNotice(): void;
  /**
   * "Meus dados": everything Sino keeps about this browser, as JSON (pass it to the core's
   * `downloadMyData(window, data)` to offer the file). Rejects with `not_subscribed` when off.
   */
  exportMyData(): Promise<MyData>;
  /** "Apagar meus dados": erases it on the server, then unsubscribes this browser (state becomes off). */
  eraseMyData(): Promise<ErasedData>;
  /**
   * Listens to clicks on Sino's notifications that reach this page: `{ notificationId, action:
   * "open" | "1" | "2", url, data }`. Call it in an effect and return what it returns (the
   * function that stops listening): `useEffect(() => onClick((click) => navigate(…)), [onClick])`.
   */
  onClick(handler: (click: SinoClick) => void): () => void;
}

/** What the hook shows where there is no client (server rendering): not decided yet. */
const NO_CLIENT: SinoSnapshot = { status: "checking", hiddenReason: null, busy: false, token: null, channels: null, notice: null };

/** The bell's state and actions for a custom UI, re-rendering on every change of the client. */
export function useSino(): UseSino {
  const client = useSinoClient();
  const subscribeToChanges = useCallback(
    (onChange: () => void): (() => void) => {
      if (!client) return () => undefined;
      const stop = client.on("change", onChange);
      return () => void stop();
    },
    [client],
  );
  const getSnapshot = useCallback(() => client?.getSnapshot() ?? NO_CLIENT, [client]);
  const snapshot = useSyncExternalStore(subscribeToChanges, getSnapshot, () => NO_CLIENT);
  const actions = useMemo(() => actionsOf(client), [client]);
  return {
    state: snapshot.status,
    hiddenReason: snapshot.hiddenReason,
    busy: snapshot.busy,
    token: snapshot.token,
    channels: snapshot.channels,
    notice: snapshot.notice,
    ...actions,
  };
}

function actionsOf(client: SinoClient | null) {
  const needClient = (): SinoClient => {
    if (!client) throw new Error("Sino runs in the browser only");
    return client;
  };
  return {
    subscribe: async () => {
      await needClient().subscribe();
    },
    unsubscribe: async () => {
      await needClient().unsubscribe();
    },
    toggle: async () => {
      await needClient().toggle();
    },
    loadChannels: () => needClient().loadChannels(),
    setChannels: (slugs: readonly string[]) => needClient().setChannels(slugs),
    identify: (userId: string, signature?: string | null, tags?: Tags) => needClient().identify(userId, signature, tags),
    tag: (key: string, value?: TagValue) => needClient().tag(key, value),
    untag: (key: string) => needClient().untag(key),
    forget: () => needClient().forget(),
    quietHours: () => needClient().quietHours(),
    setQuietHours: (range: string | null) => needClient().setQuietHours(range),
    dismissNotice: () => client?.dismissNotice(),
    exportMyData: () => needClient().exportMyData(),
    eraseMyData: () => needClient().eraseMyData(),
    onClick: (handler: (click: SinoClick) => void): (() => void) => (client ? client.on("click", handler) : () => undefined),
  };
}
