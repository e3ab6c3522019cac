/// <reference lib="webworker" />
/**
 * Sino's service worker, served as /sw.js with scope `/`. Built as a classic script (one IIFE, no
 * `import` at run time): Firefox ESR does not run module service workers
 * (`register(url, { type: "module" })` fails there), and a classic worker runs everywhere.
 */
import { createI18n } from "../i18n/create-i18n.js";
import { createApiClient } from "../messaging/api-client.js";
import { buildNotification } from "./notification-content.js";
import type { NotificationData } from "./notification-content.js";
import { resolveNotificationLink } from "./notification-link.js";
import { reportNotificationEvent } from "./report-event.js";
import { renewSubscription } from "./subscription-change.js";
import type { PushSubscriptionChangeEvent } from "./subscription-change.js";

declare const self: ServiceWorkerGlobalScope;

const i18n = createI18n();
const api = createApiClient({ baseUrl: self.location.origin });

// A new version takes over at once: the worker holds no state worth draining, and an old worker
// left in charge would keep showing notifications its way until every tab is closed.
self.addEventListener("install", () => {
  void self.skipWaiting();
});
self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("push", (event) => {
  event.waitUntil(showPush(event.data));
});

async function showPush(data: PushMessageData | null): Promise<void> {
  let text: string | null = null;
  try {
    text = data ? data.text() : null;
  } catch {
    // Undecodable bytes: still show the fallback notification below.
  }
  const { title, options } = buildNotification(text, {
    defaultTitle: i18n.t("sw.defaultTitle"),
    fallbackBody: i18n.t("sw.fallbackBody"),
  });
  await self.registration.showNotification(title, options);
  // Signal for pages (and browser tests): getNotifications() may not list it before this point.
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  for (const client of windows) client.postMessage({ type: "sino:shown", tag: options.tag ?? null, title });
  // Reported only once it is really shown; inside waitUntil so the worker is not stopped mid-request.
  await reportNotificationEvent("shown", options.data, self.registration, api);
}

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data as Partial<NotificationData> | null;
  const link = resolveNotificationLink(data?.url ?? null, self.location.origin);
  // Open first: openWindow must run while the click's user activation lasts, so the report
  // (a network round trip) goes alongside, never before it.
  event.waitUntil(Promise.all([link ? focusOrOpen(link) : Promise.resolve(), reportNotificationEvent("clicked", data, self.registration, api)]));
});

self.addEventListener("notificationclose", (event) => {
  event.waitUntil(reportNotificationEvent("closed", event.notification.data, self.registration, api));
});

async function focusOrOpen(link: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => client.url === link);
  if (open) {
    await open.focus();
    return;
  }
  // openWindow is only allowed during a notificationclick (user activation); it may resolve null
  // for cross-origin links, which is fine: the tab opens, we just cannot control it.
  await self.clients.openWindow(link);
}

self.addEventListener("pushsubscriptionchange", (event) => {
  const change = event as PushSubscriptionChangeEvent;
  change.waitUntil(
    renewSubscription(change, self.registration, api).catch((error: unknown) => {
      console.error("Could not renew the push subscription", error);
    }),
  );
});
