/// <reference lib="webworker" />
import type { ApiClient } from "../messaging/api-client.js";
import { isPageReadyMessage } from "../messaging/click-message.js";
import { createClickHandoff } from "./click-handoff.js";
import { buildNotification } from "./notification-content.js";
import type { ContentTexts, NotificationData } from "./notification-content.js";
import { unshownData } from "./unshown-report.js";
import { planNotificationClick } from "./notification-click.js";
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
 * push (Sino's classic payload or a declarative one), open or focus its link on click and hand the
 * click to the page, report shown/clicked/closed, renew a rotated subscription. Only listeners for
 * those events are added (its `message` listener reads Sino's own message only), so a worker that
 * imports this keeps its own `fetch`, `install` and `message` handlers untouched.
 */
export function installSinoWorker(scope: ServiceWorkerGlobalScope, options: SinoWorkerOptions): void {
  const { api, texts } = options;
  const handoff = createClickHandoff(scope.clients);

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
    const { title, options: notification, appBadge } = buildNotification(text, texts);
    // Received but not shown as sent: counted on the notification (unshown-report.ts).
    const unshown = unshownData(notification.data as NotificationData, text);
    if (unshown !== null) await reportNotificationEvent("not_shown", unshown, scope.registration, api);
    try {
      await scope.registration.showNotification(title, notification);
    } catch (error) {
      console.error("Could not show the notification", error);
      await reportNotificationEvent("not_shown", notification.data, scope.registration, api);
      return;
    }
    if (appBadge !== undefined) await setAppBadge(appBadge);
    // Signal for pages (and browser tests): getNotifications() may not list it before this point.
    const windows = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
    for (const client of windows) client.postMessage({ type: "sino:shown", tag: notification.tag ?? null, title });
    // Reported only once it is really shown; inside waitUntil so the worker is not stopped mid-request.
    await reportNotificationEvent("shown", notification.data, scope.registration, api);
  }

  /** The Badging API, where the browser has it in workers (Chromium, Safari); a nicety elsewhere. */
  async function setAppBadge(count: number): Promise<void> {
    const navigator = scope.navigator as WorkerNavigator & { setAppBadge?: (count?: number) => Promise<void> };
    if (typeof navigator.setAppBadge !== "function") return;
    // setAppBadge(0) clears the badge (Badging API §2.2).
    await navigator.setAppBadge(count).catch((error: unknown) => console.warn("Could not set the app badge", error));
  }

  scope.addEventListener("notificationclick", (event) => {
    event.notification.close();
    const plan = planNotificationClick(event.notification, event.action, scope.location.origin);
    // Open first: openWindow must run while the click's user activation lasts, so the report
    // (a network round trip) goes alongside, never before it.
    const opened = plan.link
      ? handoff.deliver(plan.link, plan.click).catch((error: unknown) => console.warn("Could not open the notification's link", error))
      : Promise.resolve();
    event.waitUntil(Promise.all([opened, reportNotificationEvent("clicked", event.notification.data, scope.registration, api, plan.action)]));
  });

  scope.addEventListener("message", (event) => {
    if (!isPageReadyMessage(event.data)) return;
    const source = event.source;
    if (source && "url" in source) handoff.pageReady({ id: source.id, url: source.url });
  });

  scope.addEventListener("notificationclose", (event) => {
    event.waitUntil(reportNotificationEvent("closed", event.notification.data, scope.registration, api));
  });

  scope.addEventListener("pushsubscriptionchange", (event) => {
    const change = event as PushSubscriptionChangeEvent;
    change.waitUntil(
      renewSubscription(change, scope.registration, api).catch((error: unknown) => {
        console.error("Could not renew the push subscription", error);
      }),
    );
  });
}
