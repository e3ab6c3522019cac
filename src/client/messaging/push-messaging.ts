import type { PushSubscriptionJson } from "../../shared/api/subscriptions.js";
import type { SignedUserClaim as UserClaim } from "../../shared/api/subscriptions.js";
import type { IdentityStore } from "../identity/identity-store.js";
import { ApiRequestError, asApiError } from "./api-client.js";
import type { ApiClient, RegisteredSubscription } from "./api-client.js";
import { detectMessaging } from "./availability.js";
import type { MessagingAvailability, MessagingEnvironment } from "./availability.js";
import { base64UrlToBytes, sameKey } from "./base64url.js";
import { CONSOLE_MESSAGES } from "./console-messages.js";
import { toSubscriptionJson } from "./subscription-json.js";
import { TimeoutError, withTimeout } from "./with-timeout.js";
import { applicationServerKeyOf, moveToSiteKey, type SilentMove } from "./silent-move.js";

/** The part of `Notification` the bell needs (absent where the API is). */
export interface NotificationPermissionApi {
  readonly permission: NotificationPermission;
  requestPermission(): Promise<NotificationPermission>;
}

export interface PushMessagingDeps {
  api: ApiClient;
  environment: MessagingEnvironment;
  serviceWorker: ServiceWorkerContainer | undefined;
  notification: NotificationPermissionApi | undefined;
  logger: Pick<Console, "log" | "warn" | "error">;
  /** Where the worker is served (default `/sw.js`, Sino's own). */
  serviceWorkerUrl?: string;
  /** The worker's scope (default `/`, so every page of the origin is controlled). */
  serviceWorkerScope?: string;
  /**
   * Upper bound for browser calls that may never settle: Chromium's `subscribe()` waits forever
   * for its push service (GCM check-in) when it is unreachable, without raising an error.
   */
  timeoutMs?: number;
  /**
   * Upper bound for the push service's answer to `subscribe()` (default 10 s, about as long as a
   * person waits for a spinner): past it the bell gives up and says so instead of spinning.
   */
  pushServiceTimeoutMs?: number;
  /** The person the page identified (`identify`), sent with every registration; none by default. */
  identity?: IdentityStore;
}

export interface StartResult {
  availability: MessagingAvailability;
  token: PushSubscriptionJson | null;
  /** The channels (slugs) the server has for the token; null when unknown (no token, server unreachable). */
  channels: string[] | null;
  /** The person the server tied the token to with this registration; null when none was sent or it failed. */
  identified: UserClaim | null;
  /** The subscription was silently moved to the site's key on this visit ("migrada"). */
  migrated?: boolean;
}

export type EnableResult =
  | { kind: "on"; token: PushSubscriptionJson; channels: string[] | null; identified: UserClaim | null }
  | { kind: "no-token"; permission: NotificationPermission }
  | { kind: "token-error" }
  /** The browser's push service (or the worker) did not answer in time; nothing was kept. */
  | { kind: "timeout" }
  | { kind: "server-error"; error: ApiRequestError };

export type DisableResult = { kind: "off" } | { kind: "server-error"; error: ApiRequestError };

export interface PushMessaging {
  /** Decide availability, register the worker, pick up (and re-register) an existing subscription. Runs once. */
  start(): Promise<StartResult>;
  /** Off → on: permission, subscription with the server's VAPID key, registration on the server. */
  enable(): Promise<EnableResult>;
  /** On → off: unsubscribe in the browser, then remove on the server with the auth secret as proof. Throws if the browser refuses. */
  disable(token: PushSubscriptionJson | null): Promise<DisableResult>;
}

/** The codes with which the server refuses an identification (and so the registration carrying it). */
const IDENTITY_REFUSALS: ReadonlySet<string> = new Set(["user_id_invalid", "user_signature_required", "user_signature_invalid", "site_identity_secret_missing"]);

export function createPushMessaging(deps: PushMessagingDeps): PushMessaging {
  const { api, logger } = deps;
  const timeoutMs = deps.timeoutMs ?? 20_000;
  const pushServiceTimeoutMs = deps.pushServiceTimeoutMs ?? 10_000;
  const serviceWorkerUrl = deps.serviceWorkerUrl ?? "/sw.js";
  const serviceWorkerScope = deps.serviceWorkerScope ?? "/";
  let started: Promise<StartResult> | undefined;

  function container(): ServiceWorkerContainer {
    if (!deps.serviceWorker) throw new Error("Service workers are not available");
    return deps.serviceWorker;
  }

  async function readyRegistration(): Promise<ServiceWorkerRegistration> {
    // `subscribe()` needs an active worker ("no active Service Worker" otherwise): wait for it.
    return withTimeout(container().ready, timeoutMs, "serviceWorker.ready");
  }

  async function doStart(): Promise<StartResult> {
    const availability = detectMessaging(deps.environment);
    if (!availability.available) {
      logger.log(CONSOLE_MESSAGES.notInitialised);
      return { availability, token: null, channels: null, identified: null };
    }
    let registration: ServiceWorkerRegistration;
    try {
      registration = await container().register(serviceWorkerUrl, { scope: serviceWorkerScope });
    } catch (error) {
      logger.error("Service worker registration failed", error);
      return { availability: { available: false, reason: "unsupported" }, token: null, channels: null, identified: null };
    }
    let existing = await registration.pushManager.getSubscription().catch(() => null);
    if (!existing) return { availability, token: null, channels: null, identified: null };
    // Made with another key (another sender's, the site's previous one): moved without asking.
    const moved = await moveToSiteKey(registration, existing, { api, notification: deps.notification, timeoutMs: pushServiceTimeoutMs, logger });
    if (moved === "failed") return { availability, token: null, channels: null, identified: null };
    if (moved !== null) existing = moved.subscription;
    const token = toSubscriptionJson(existing.toJSON());
    if (!token) return { availability, token: null, channels: null, identified: null };
    // The server may have lost or pruned it (a restored backup, a 410 it mistook): register again.
    // This also refreshes its last_seen_at, which keeps the hygiene task from expiring it.
    let channels: string[] | null = null;
    let identified: UserClaim | null = null;
    try {
      const registered = await register(token, moved ?? { applicationServerKey: applicationServerKeyOf(existing) });
      channels = registered.subscription.channels ?? null;
      identified = registered.identified;
    } catch (error) {
      if (error instanceof ApiRequestError && error.definitive) {
        // The server refuses this subscription for good (e.g. its push service is no longer
        // allowed): a bell showing "on" would promise notices that can never arrive.
        logger.warn("The server refused the existing subscription; turning it off", error.code);
        await existing.unsubscribe().catch(() => false);
        return { availability, token: null, channels: null, identified: null };
      }
      // Unreachable or failing server: keep it; the next visit registers it again.
      logger.warn("Could not re-register the existing subscription", error);
    }
    return { availability, token, channels, identified, ...(moved === null ? {} : { migrated: true }) };
  }

  /**
   * Registers the token with the remembered person, if any. The server refuses the whole
   * registration when it refuses the identification (a stale signature after the site's secret
   * was rotated, a site that turned verification on): the visitor asked for notifications and
   * must not lose them to the host's mistake, so the token is registered again anonymously, the
   * refused identity is dropped (the page identifies again on its next sign-in or visit), and the
   * console says why.
   */
  async function register(
    token: PushSubscriptionJson,
    made?: SilentMove | { readonly applicationServerKey: string | undefined },
  ): Promise<RegisteredSubscription & { identified: UserClaim | null }> {
    const user = deps.identity?.read() ?? null;
    // The key it was made with (the server signs its pushes with that one) and, after a silent
    // move, the replaced subscription as proof and the "migrada" mark.
    const move = made !== undefined && "subscription" in made ? made : undefined;
    const previous = move?.previous;
    const extras = made === undefined ? undefined : { applicationServerKey: made.applicationServerKey, ...(move === undefined ? {} : { migrated: true }) };
    if (user) {
      try {
        return { ...(await api.registerSubscription(token, previous, user, extras)), identified: user };
      } catch (error) {
        if (!(error instanceof ApiRequestError && IDENTITY_REFUSALS.has(error.code))) throw error;
        logger.error("Sino: the server refused to identify this subscription; registered it anonymously", error.code);
        deps.identity?.clear();
      }
    }
    return { ...(await api.registerSubscription(token, previous, undefined, extras)), identified: null };
  }

  async function ensurePermission(): Promise<NotificationPermission> {
    const notification = deps.notification;
    if (!notification) return "denied";
    if (notification.permission !== "default") return notification.permission;
    return withTimeout(notification.requestPermission(), timeoutMs, "Notification.requestPermission");
  }

  async function enable(): Promise<EnableResult> {
    let registration: ServiceWorkerRegistration;
    let permission: NotificationPermission;
    try {
      registration = await readyRegistration();
      permission = await ensurePermission();
    } catch (error) {
      logger.error(CONSOLE_MESSAGES.tokenError, error);
      return { kind: error instanceof TimeoutError ? "timeout" : "token-error" };
    }
    if (permission !== "granted") {
      logger.log(CONSOLE_MESSAGES.noToken);
      return { kind: "no-token", permission };
    }

    let vapidPublicKey: string;
    try {
      vapidPublicKey = (await api.getConfig()).vapidPublicKey;
    } catch (error) {
      return { kind: "server-error", error: asApiError(error) };
    }

    let subscription: PushSubscription | null;
    try {
      const key = base64UrlToBytes(vapidPublicKey);
      const existing = await registration.pushManager.getSubscription();
      // A subscription made with another key (the server's keys were replaced) cannot be reused,
      // and subscribe() with a new key rejects with InvalidStateError while it exists.
      if (existing && !sameKey(existing.options.applicationServerKey, key)) await existing.unsubscribe();
      subscription = await withTimeout(
        // userVisibleOnly: browsers refuse silent push (Chrome requires it; Firefox/Safari revoke).
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }),
        pushServiceTimeoutMs,
        "pushManager.subscribe",
      );
    } catch (error) {
      if (error instanceof DOMException && error.name === "NotAllowedError") {
        // Permission was withdrawn between the check and the call.
        logger.log(CONSOLE_MESSAGES.noToken);
        return { kind: "no-token", permission: deps.notification?.permission ?? "denied" };
      }
      // The seed's message, verbatim, whatever went wrong; the visitor hears about a timeout only.
      logger.error(CONSOLE_MESSAGES.tokenError, error);
      return { kind: error instanceof TimeoutError ? "timeout" : "token-error" };
    }
    if (!subscription) {
      logger.log(CONSOLE_MESSAGES.noToken);
      return { kind: "no-token", permission };
    }

    const token = toSubscriptionJson(subscription.toJSON());
    if (!token) {
      logger.error(CONSOLE_MESSAGES.tokenError, new Error("The subscription has no keys"));
      await subscription.unsubscribe().catch(() => false);
      return { kind: "token-error" };
    }
    let registered: Awaited<ReturnType<typeof register>>;
    try {
      registered = await register(token, { applicationServerKey: applicationServerKeyOf(subscription) });
    } catch (error) {
      // Never show "on" for a subscription the server does not have: undo it in the browser.
      await subscription.unsubscribe().catch(() => false);
      return { kind: "server-error", error: asApiError(error) };
    }
    return { kind: "on", token, channels: registered.subscription.channels ?? null, identified: registered.identified };
  }

  async function disable(token: PushSubscriptionJson | null): Promise<DisableResult> {
    const registration = await readyRegistration();
    const subscription = await registration.pushManager.getSubscription();
    const current = subscription ? toSubscriptionJson(subscription.toJSON()) : null;
    // Browser first: once unsubscribed the endpoint is dead whatever the server does, so a failed
    // DELETE only leaves a row that the first send prunes (404/410).
    if (subscription) await subscription.unsubscribe();
    const proof = current ?? token;
    if (!proof) return { kind: "off" };
    try {
      await api.removeSubscription({ endpoint: proof.endpoint, auth: proof.keys.auth });
    } catch (error) {
      return { kind: "server-error", error: asApiError(error) };
    }
    return { kind: "off" };
  }

  return {
    start: () => (started ??= doStart()),
    enable,
    disable,
  };
}
