import type { PublicChannel } from "../shared/api/channels.js";
import type { Organisation } from "../shared/api/organisation.js";
import type { PushSubscriptionJson, SignedUserClaim as UserClaim } from "../shared/api/subscriptions.js";
import { isValidTagKey, isValidTagValue, type Tags, type TagValue } from "../shared/api/tag-rule.js";
import { isValidUserId } from "../shared/api/user-id-rule.js";
import { createIdentityStore, identityStorageKey, sameIdentity } from "./identity/identity-store.js";
import { ApiRequestError, asApiError, createApiClient } from "./messaging/api-client.js";
import { listenForClicks } from "./messaging/click-listener.js";
import type { SinoClick } from "./messaging/click-message.js";
import { supportsDeclarativePush } from "./messaging/declarative-push.js";
import type { ApiClient } from "./messaging/api-client.js";
import type { UnavailableReason } from "./messaging/availability.js";
import { createPushMessaging } from "./messaging/push-messaging.js";
import type { NotificationPermissionApi, PushMessaging } from "./messaging/push-messaging.js";
import { readMessagingEnvironment } from "./messaging/read-environment.js";
import type { ConsentInput } from "../shared/api/consent.js";
import { consentFor, type ConsentSource } from "./privacy/consent.js";
import { createMyDataApi, type ErasedData, type MyData } from "./privacy/my-data.js";
import { eraseMyDataThenUnsubscribe } from "./privacy/erase-my-data.js";
import { createQuietHoursClient } from "./engagement/quiet-hours.js";

/**
 * The bell's state as any UI shows it (seed-spec §4, plus what issue 9 adds):
 * - `checking`: not decided yet (the page just loaded);
 * - `hidden`: messaging is unavailable here (insecure page, iOS browser tab, webview…): no bell;
 * - `off`: grey, "Habilitar Notificações";
 * - `denied`: off, and the browser blocks notifications for this site: a click explains how to
 *   unblock (also after a reload, for as long as the permission stays denied);
 * - `on`: a token is held, "Desabilitar Notificações".
 */
export type SinoStatus = "checking" | "hidden" | "off" | "denied" | "on";

/** What to tell the visitor after an action that did not simply work (pt-BR texts live in the catalog). */
export type SinoNotice = "blocked" | "enable-failed" | "disable-failed" | "disable-server-failed" | "enable-timeout";

/** One immutable picture of the client; a new object on every change (fits React's useSyncExternalStore). */
export interface SinoSnapshot {
  readonly status: SinoStatus;
  /** Why the bell is hidden; null unless `status` is `hidden`. */
  readonly hiddenReason: UnavailableReason | null;
  /** An action is in progress: the bell ignores clicks until it ends. */
  readonly busy: boolean;
  /** The device token of seed-spec §3 (the push subscription as `toJSON()` gives it); non-null ⇔ on. */
  readonly token: PushSubscriptionJson | null;
  /** The channels (slugs) the server holds for the token; null when unknown. */
  readonly channels: readonly string[] | null;
  readonly notice: SinoNotice | null;
}

/** The channels a visitor may pick, the limit, and what this browser has now. */
export interface SinoChannelChoice {
  readonly available: readonly PublicChannel[];
  /** Most channels one subscription may choose; null when the server does not say. */
  readonly limit: number | null;
  readonly chosen: readonly string[];
  /** Whose notices these are (name, logo, accent colour), for the panel's heading; null when the server does not say. */
  readonly organisation: Organisation | null;
}

export type SinoChangeListener = (snapshot: SinoSnapshot) => void;
/** Called for each click on a Sino notification that the service worker hands to this page. */
export type SinoClickListener = (click: SinoClick) => void;

export interface SinoClientOptions {
  /** Sino's address, e.g. `https://sino.exemplo.com.br` (only its origin and path prefix are used). */
  sinoUrl: string;
  /** The site's public key (Painel → Sites); omit on Sino's own origin. */
  site?: string | null;
  /**
   * The site's service worker, which imports Sino's (`importScripts('https://SINO/embed/sw.js')`).
   * Default `/sino-sw.js`. A site that already has a worker names that one (a scope has one worker).
   */
  serviceWorkerUrl?: string;
  /** Default `/`. */
  serviceWorkerScope?: string;
  /** Upper bound for browser calls that may never settle (default 20 s). */
  timeoutMs?: number;
  /** Upper bound for the push service's answer when turning notifications on (default 10 s). */
  pushServiceTimeoutMs?: number;
  /** The page (default: the global `window`); tests and frames may pass another. */
  window?: Window;
  logger?: Pick<Console, "log" | "warn" | "error">;
  fetch?: typeof fetch;
}

export interface SinoClient {
  /** Shorthand for `getSnapshot().status`. */
  readonly state: SinoStatus;
  getSnapshot(): SinoSnapshot;
  /** Decide availability, register the worker, pick up an existing subscription. Idempotent. */
  start(): Promise<SinoSnapshot>;
  /**
   * Off → on (asks the browser's permission when not yet given). Ignored while busy or when on.
   * `from` says which of Sino's own texts the visitor said yes to (the bell's button, the soft
   * prompt), recorded as their consent; a custom UI's own wording is not Sino's to record, so a call
   * without `from` sends no consent record.
   */
  subscribe(from?: ConsentSource): Promise<SinoSnapshot>;
  /** On → off, in the browser and on the server. Ignored while busy or when off. */
  unsubscribe(): Promise<SinoSnapshot>;
  /** What a click on the bell does: subscribe when off or denied, unsubscribe when on. */
  toggle(): Promise<SinoSnapshot>;
  /** The active channels and the limit (from the server's public config) and this browser's choice. */
  loadChannels(): Promise<SinoChannelChoice>;
  /** Replaces this subscription's channels on the server; resolves with what it stored. Throws `ApiRequestError`. */
  setChannels(slugs: readonly string[]): Promise<readonly string[]>;
  /**
   * Ties this browser's subscription to a person of the host app (at sign-in): `signature` is the
   * hex HMAC-SHA256 of `userId` with the site's identity secret, computed on the host's server.
   * Remembered in this browser and sent with every registration, so an identification made before
   * the bell is on is applied when it is turned on, and again on each visit. When on, the server is
   * told at once. Rejects with an `ApiRequestError` whose `code` is the API's (`user_id_invalid`,
   * `user_signature_invalid`…) and writes it to the console; a refused identity is not remembered.
   */
  identify(userId: string, signature?: string | null, tags?: Tags): Promise<void>;
  /**
   * Sets a visitor tag on this browser's subscription (`tag("bairro", "Centro")`, `tag("vip")` for
   * a key-only tag): the page's word, marked as such, never a person's trusted tag. Resolves with
   * all of this subscription's visitor tags. Rejects with an `ApiRequestError`: `not_subscribed`
   * while notifications are off (there is nothing to tag yet), `tag_key_invalid`,
   * `tag_value_invalid`, or the API's (`visitor_tags_disabled` when the site turned them off).
   */
  tag(key: string, value?: TagValue): Promise<Tags>;
  /** Removes a visitor tag from this browser's subscription; as `tag` otherwise. */
  untag(key: string): Promise<Tags>;
  /** Makes the subscription anonymous again (at sign-out): its channels stay. Forgets the remembered person. */
  forget(): Promise<void>;
  /** "Meus dados": everything Sino keeps about this browser (JSON). Rejects with `not_subscribed` when off. */
  exportMyData(): Promise<MyData>;
  /**
   * "Apagar meus dados": erases this browser's subscription, its events and personal fields on the
   * server, then unsubscribes the browser and forgets the remembered person; the bell shows off.
   */
  eraseMyData(): Promise<ErasedData>;
  /** This browser's own quiet hours (`HH:MM-HH:MM` in its time zone, e.g. `22:00-07:00`), or null. Rejects with `not_subscribed` while off. */
  quietHours(): Promise<string | null>;
  /** Sets them (null clears); resolves with what the server stored. Rejects with `not_subscribed`, `quiet_hours_invalid` or the API's code. */
  setQuietHours(range: string | null): Promise<string | null>;
  dismissNotice(): void;
  /** Listen to changes; returns the function that stops listening. */
  on(event: "change", listener: SinoChangeListener): () => void;
  /**
   * Listen to clicks on Sino's notifications (the body, "open", or an action button, "1"/"2"),
   * with the notification's `data`, once this page is the one the service worker focused or
   * opened. Listening starts with `start()`; a click that arrives before any click listener is
   * kept and given to the first one. Returns the function that stops listening.
   */
  on(event: "click", listener: SinoClickListener): () => void;
  off(event: "change", listener: SinoChangeListener): void;
  off(event: "click", listener: SinoClickListener): void;
}

/** Developer diagnostics (the console and the rejection), in Portuguese like the API's errors. */
const NOT_SUBSCRIBED = new ApiRequestError(
  0,
  "not_subscribed",
  "As notificações estão desligadas neste navegador: não há inscrição para receber etiquetas. Chame tag() depois que a pessoa ativar as notificações.",
);
const TAG_KEY_INVALID = new ApiRequestError(0, "tag_key_invalid", "A chave de uma etiqueta deve ter de 1 a 64 caracteres: letras minúsculas sem acento, números, _ - ou .");
const TAG_VALUE_INVALID = new ApiRequestError(0, "tag_value_invalid", "O valor de uma etiqueta deve ser um texto imprimível de até 255 caracteres, um número ou true.");
const TAGS_INVALID = new ApiRequestError(0, "tag_key_invalid", "As etiquetas devem ser { chave: valor } com chaves de 1 a 64 caracteres (a-z, 0-9, _ - .) e até 100 etiquetas.");

function validTags(tags: unknown): tags is Tags {
  if (typeof tags !== "object" || tags === null || Array.isArray(tags)) return false;
  const entries = Object.entries(tags as Record<string, unknown>);
  return entries.length <= 100 && entries.every(([key, value]) => isValidTagKey(key) && isValidTagValue(value));
}

/** The browser's IANA time zone (segments' `fuso`); null where Intl cannot say. */
function browserTimeZone(): string | null {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

const INITIAL: SinoSnapshot = { status: "checking", hiddenReason: null, busy: false, token: null, channels: null, notice: null };

/**
 * The framework-free Sino client: the bell's logic without any UI. The `<sino-bell>` element
 * (src/embed) and the React package render it; custom UIs use it through `window.Sino`.
 */
export function createSinoClient(options: SinoClientOptions): SinoClient {
  const win = options.window ?? window;
  const logger = options.logger ?? console;
  const baseUrl = options.sinoUrl.replace(/\/+$/, "");
  const api: ApiClient = createApiClient({
    baseUrl,
    site: options.site ?? null,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
    timeZone: browserTimeZone(),
    declarative: supportsDeclarativePush(win),
    consent: () => pendingConsent,
  });
  /** The consent of the "yes" being turned into a subscription right now (privacy/consent.ts). */
  let pendingConsent: ConsentInput | undefined;
  const quiet = createQuietHoursClient({ baseUrl, fetch: options.fetch });
  const identity = createIdentityStore(localStorageOf(win), identityStorageKey(baseUrl, options.site ?? null));
  const notification = "Notification" in win ? (win.Notification as unknown as NotificationPermissionApi) : undefined;
  const messaging: PushMessaging = createPushMessaging({
    api,
    environment: readMessagingEnvironment(win),
    serviceWorker: "serviceWorker" in win.navigator ? win.navigator.serviceWorker : undefined,
    notification,
    logger,
    serviceWorkerUrl: options.serviceWorkerUrl ?? "/sino-sw.js",
    serviceWorkerScope: options.serviceWorkerScope ?? "/",
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.pushServiceTimeoutMs === undefined ? {} : { pushServiceTimeoutMs: options.pushServiceTimeoutMs }),
    identity,
  });

  let snapshot = INITIAL;
  /** The person the server holds for the current token, as far as this page knows (skips a repeated PUT). */
  let applied: UserClaim | null = null;
  const listeners = new Set<SinoChangeListener>();
  const clickListeners = new Set<SinoClickListener>();
  /** Clicks that came before any click listener (a React child mounts after the provider starts). */
  let unclaimedClicks: SinoClick[] = [];
  let started: Promise<SinoSnapshot> | undefined;

  function update(patch: Partial<SinoSnapshot>): SinoSnapshot {
    snapshot = { ...snapshot, ...patch };
    for (const listener of [...listeners]) {
      try {
        listener(snapshot);
      } catch (error) {
        // A broken listener (a site's custom UI) must not break the bell or the other listeners.
        logger.error("A Sino change listener failed", error);
      }
    }
    return snapshot;
  }

  function emitClick(click: SinoClick): void {
    if (clickListeners.size === 0) {
      unclaimedClicks = [...unclaimedClicks, click].slice(-5);
      return;
    }
    for (const listener of [...clickListeners]) {
      try {
        listener(click);
      } catch (error) {
        logger.error("A Sino click listener failed", error);
      }
    }
  }

  function addClickListener(listener: SinoClickListener): () => void {
    clickListeners.add(listener);
    const pending = unclaimedClicks;
    unclaimedClicks = [];
    for (const click of pending) emitClick(click);
    return () => clickListeners.delete(listener);
  }

  const permission = (): NotificationPermission => notification?.permission ?? "denied";
  const offStatus = (): SinoStatus => (permission() === "denied" ? "denied" : "off");

  async function doStart(): Promise<SinoSnapshot> {
    const result = await messaging.start();
    if (!result.availability.available) {
      return update({ status: "hidden", hiddenReason: result.availability.reason, token: null, channels: null });
    }
    watchPermission();
    if ("serviceWorker" in win.navigator) listenForClicks(win.navigator.serviceWorker, emitClick, logger);
    applied = result.identified;
    return update({ status: result.token ? "on" : offStatus(), token: result.token, channels: result.channels });
  }

  /** The visitor may unblock (or block) in the browser's settings while the page is open. */
  function watchPermission(): void {
    const permissions = win.navigator.permissions as Permissions | undefined;
    if (!permissions) return;
    permissions.query({ name: "notifications" }).then(
      (status) => {
        status.addEventListener("change", () => {
          if (snapshot.status === "off" || snapshot.status === "denied") update({ status: offStatus() });
        });
      },
      () => {
        // Not queryable in this browser: the status is re-read after each click instead.
      },
    );
  }

  const start = (): Promise<SinoSnapshot> => (started ??= doStart());

  /** Runs one bell action: busy while it lasts, its outcome and `busy: false` in one change. */
  async function act(action: () => Promise<Partial<SinoSnapshot>>): Promise<SinoSnapshot> {
    update({ busy: true, notice: null });
    let outcome: Partial<SinoSnapshot> = {};
    try {
      outcome = await action();
    } finally {
      update({ ...outcome, busy: false });
    }
    return snapshot;
  }

  async function subscribe(from?: ConsentSource): Promise<SinoSnapshot> {
    await start();
    if (snapshot.busy || snapshot.status === "hidden" || snapshot.status === "on") return snapshot;
    return act(async () => {
      pendingConsent = from === undefined ? undefined : consentFor(from);
      const result = await messaging.enable().finally(() => (pendingConsent = undefined));
      switch (result.kind) {
        case "on":
          applied = result.identified;
          return { status: "on", token: result.token, channels: result.channels };
        case "no-token":
          // Denied or dismissed: tell how to allow it (Chrome blocks the prompt after a few dismissals).
          return { status: offStatus(), notice: "blocked" };
        case "server-error":
          if (result.error.code === "origin_not_allowed") explainRefusedOrigin(result.error);
          else logger.error("Could not register the subscription with the server", result.error.code);
          return { status: offStatus(), notice: "enable-failed" };
        case "token-error":
          // seed-spec §8: logged only, nothing shown to the visitor.
          return { status: offStatus() };
        case "timeout":
          // Logged as the seed logs it (token-error); the visitor learns it is not their doing.
          return { status: offStatus(), notice: "enable-timeout" };
      }
    });
  }

  /**
   * The site's developer forgot to register this origin (Painel → Sites): say so in the console,
   * in pt-BR with the server's reason and the exact origin to register, instead of a bare CORS error.
   */
  function explainRefusedOrigin(error: ApiRequestError): void {
    logger.error(`Sino: a origem ${win.location.origin} não está cadastrada neste Sino (${baseUrl}). ${error.message}`, error.code);
  }

  async function unsubscribe(): Promise<SinoSnapshot> {
    await start();
    if (snapshot.busy || snapshot.status !== "on") return snapshot;
    return act(async () => {
      try {
        const result = await messaging.disable(snapshot.token);
        applied = null;
        return { status: offStatus(), token: null, channels: null, notice: result.kind === "server-error" ? "disable-server-failed" : null };
      } catch (error) {
        // The browser kept its subscription: it is still on, and honest about it.
        logger.error("Could not unsubscribe", error);
        return { notice: "disable-failed" };
      }
    });
  }

  async function loadChannels(): Promise<SinoChannelChoice> {
    const config = await api.getConfig();
    return {
      available: config.channels ?? [],
      limit: config.maxChannelsPerSubscription ?? null,
      chosen: snapshot.channels ?? [],
      organisation: config.organisation ?? null,
    };
  }

  async function setChannels(slugs: readonly string[]): Promise<readonly string[]> {
    const token = snapshot.token;
    if (!token) throw new ApiRequestError(0, "not_subscribed", "Notifications are off: there is no subscription to choose channels for");
    const stored = await api.updateChannels({ endpoint: token.endpoint, auth: token.keys.auth }, [...slugs]);
    update({ channels: stored });
    return stored;
  }

  /** Logs a refused identify/forget for the site's developer, and hands the error back to throw. */
  function refused(action: string, error: unknown): ApiRequestError {
    const failure = asApiError(error);
    logger.error(`Sino: ${action} failed`, failure.code, failure.message);
    return failure;
  }

  async function identify(userId: string, signature?: string | null, tags?: Tags): Promise<void> {
    if (!isValidUserId(userId)) {
      throw refused("identify", new ApiRequestError(0, "user_id_invalid", "The user id must be 1 to 128 printable characters, without leading or trailing spaces"));
    }
    if (tags !== undefined && !validTags(tags)) throw refused("identify", TAGS_INVALID);
    const signed: UserClaim = typeof signature === "string" && signature !== "" ? { id: userId, signature } : { id: userId };
    const person: UserClaim = tags === undefined ? signed : { ...signed, tags };
    await start();
    const token = snapshot.token;
    // Off (or no push here): remembered only; the next subscribe carries it.
    if (token && !sameIdentity(applied, person)) {
      try {
        await api.identifySubscription({ endpoint: token.endpoint, auth: token.keys.auth }, person);
      } catch (error) {
        const failure = refused("identify", error);
        // Unreachable server: remembered anyway, the next visit's re-registration carries it.
        // A refusal is not: it would make every later registration fail the same way.
        if (!failure.definitive) identity.write(person);
        throw failure;
      }
      applied = person;
    }
    identity.write(person);
  }

  async function setVisitorTags(action: string, key: string, value: TagValue | null): Promise<Tags> {
    if (!isValidTagKey(key)) throw refused(action, TAG_KEY_INVALID);
    if (value !== null && !isValidTagValue(value)) throw refused(action, TAG_VALUE_INVALID);
    await start();
    const token = snapshot.token;
    if (!token) throw refused(action, NOT_SUBSCRIBED);
    try {
      return await api.setVisitorTags({ endpoint: token.endpoint, auth: token.keys.auth }, { [key]: value });
    } catch (error) {
      throw refused(action, error);
    }
  }

  async function forget(): Promise<void> {
    // Forgotten here first: a sign-out must not be undone by the next visit's re-registration.
    identity.clear();
    await start();
    const token = snapshot.token;
    if (!token) return;
    try {
      await api.forgetSubscription({ endpoint: token.endpoint, auth: token.keys.auth });
    } catch (error) {
      throw refused("forget", error);
    }
    applied = null;
  }

  const myData = createMyDataApi({ baseUrl, fetch: options.fetch, token: () => snapshot.token });
  const eraseMyData = eraseMyDataThenUnsubscribe({
    myData,
    start,
    act,
    getSnapshot: () => snapshot,
    disable: (token) => messaging.disable(token),
    forget: () => {
      applied = null;
      identity.clear();
    },
    offStatus,
    logger,
  });

  return {
    get state() {
      return snapshot.status;
    },
    getSnapshot: () => snapshot,
    start,
    subscribe,
    unsubscribe,
    toggle: () => (snapshot.status === "on" ? unsubscribe() : subscribe("bell")),
    exportMyData: async () => (await start(), myData.exportMyData()),
    eraseMyData,
    loadChannels,
    setChannels,
    identify,
    tag: (key, value = true) => setVisitorTags("tag", key, value),
    untag: (key) => setVisitorTags("untag", key, null),
    forget,
    quietHours: async () => (await start(), quiet.read(snapshot.token)),
    setQuietHours: async (range) => (await start(), quiet.write(snapshot.token, range)),
    dismissNotice() {
      if (snapshot.notice !== null) update({ notice: null });
    },
    on(event: "change" | "click", listener: SinoChangeListener | SinoClickListener): () => void {
      if (event === "click") return addClickListener(listener as SinoClickListener);
      listeners.add(listener as SinoChangeListener);
      return () => listeners.delete(listener as SinoChangeListener);
    },
    off(event: "change" | "click", listener: SinoChangeListener | SinoClickListener): void {
      if (event === "click") clickListeners.delete(listener as SinoClickListener);
      else listeners.delete(listener as SinoChangeListener);
    },
  };
}

/** The page's localStorage, or null where touching it throws (storage disabled, sandboxed frame). */
function localStorageOf(win: Window): Storage | null {
  try {
    return win.localStorage ?? null;
  } catch {
    return null;
  }
}
