/// <reference lib="webworker" />
import type { ApiClient } from "../messaging/api-client.js";
import { buildNotification } from "./notification-content.js";
import type { ContentTexts, NotificationData } from "./notification-content.js";
import { resolveNotificationLink } from "./notification-link.js";
import { reportNotificationEvent } from "./report-event.js";
import { renewSubscription } from "./subscription-change.js";
import type { PushSubscriptionChangeEvent } from "./subscription-change.js";

export interface SinoWorkerOptions {
  /** Sino's public API: the same origin for Sino's own worker, Sino's URL for a site's worker. */
  api: ApiClient;
  /** pt-BR texts for a push that carries none (from the catalog, `sw.*`). */
  texts: ContentTexts;
  /**
   * Take over at once (skipWaiting + clients.claim). Sino's own worker does: it holds no state worth
   * draining. A site's worker must not: Sino's script may be imported into a PWA's worker whose
   * update flow (Workbox's "reload to update" prompt, say) decides when a new version activates.
   */
  takeOverImmediately: boolean;
}

/**
 * Sino's service worker behaviour, added to a worker global scope as event listeners: show each
 * push, open or focus its link on click, report shown/clicked/closed, renew a rotated
 * subscription. Only listeners for those events are added, so a worker that imports this keeps
 * its own `fetch`, `install` and `message` handlers untouched.
 */
export function installSinoWorker(scope: ServiceWorkerGlobalScope, options: SinoWorkerOptions): void {
  const { api, texts } = options;

  if (options.takeOverImmediately) {
    scope.addEventListener("install", () => {
      void scope.skipWaiting();
    });
    scope.addEventListener("activate", (event) => {
      event.waitUntil(scope.clients.claim());
    });
  }

  scope.addEventListener("push", (event) => {
    event.waitUntil(showPush(event.data));
  });

  async function showPush(data: PushMessageData | null): Promise<void> {
    let text: string | null = null;
    try {
      text = data ? data.text() : null;
    } catch {
      // Undecodable bytes: still show the fallback notification below.
    }
    const { title, options: notification } = buildNotification(text, texts);
    await scope.registration.showNotification(title, notification);
    // Signal for pages (and browser tests): getNotifications() may not list it before this point.
    const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) client.postMessage({ type: "sino:shown", tag: notification.tag ?? null, title });
    // Reported only once it is really shown; inside waitUntil so the worker is not stopped mid-request.
    await reportNotificationEvent("shown", notification.data, scope.registration, api);
  }

  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const data = event.notification.data as Partial<NotificationData> | null;
    const link = resolveNotificationLink(data?.url ?? null, scope.location.origin);
    // Open first: openWindow must run while the click's user activation lasts, so the report
    // (a network round trip) goes alongside, never before it.
    event.waitUntil(Promise.all([link ? focusOrOpen(link) : Promise.resolve(), reportNotificationEvent("clicked", data, scope.registration, api)]));
  });

  scope.addEventListener("notificationclose", (event) => {
    event.waitUntil(reportNotificationEvent("closed", event.notification.data, scope.registration, api));
  });

  async function focusOrOpen(link: string): Promise<void> {
    const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url === link);
    if (open) {
      await open.focus();
      return;
    }
    // openWindow is only allowed during a notificationclick (user activation); it may resolve null
    // for cross-origin links, which is fine: the tab opens, we just cannot control it.
    await scope.clients.openWindow(link);
  }

  scope.addEventListener("pushsubscriptionchange", (event) => {
    const change = event as PushSubscriptionChangeEvent;
    change.waitUntil(
      renewSubscription(change, scope.registration, api).catch((error: unknown) => {
        console.error("Could not renew the push subscription", error);
      }),
    );
  });
}
