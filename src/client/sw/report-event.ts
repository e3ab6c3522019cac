/// <reference lib="webworker" />
import type { NotificationEventType } from "../../shared/api/events.js";
import type { NotificationEventRequest } from "../../shared/api/events.js";
import type { ApiClient } from "../messaging/api-client.js";
import type { NotificationActionId } from "../messaging/click-message.js";
import { toSubscriptionJson } from "../messaging/subscription-json.js";
import type { NotificationData } from "./notification-content.js";

/**
 * Tells the server that a notification was shown, clicked or closed. The only identity sent is the
 * subscription (endpoint + auth secret as proof it is ours), read from the registration at the
 * time. Never throws: a report is a nicety, and showing or opening must not wait on it or fail
 * with it. Resolves false when nothing was reported (no notification id, no subscription, server refused).
 * `action`: the action button a click was on ("1" or "2"); none for the notification's body.
 */
export async function reportNotificationEvent(
  type: NotificationEventType,
  data: unknown,
  registration: Pick<ServiceWorkerRegistration, "pushManager">,
  api: Pick<ApiClient, "reportEvent">,
  action?: NotificationActionId,
): Promise<boolean> {
  const notificationId = notificationIdOf(data);
  // A test push from DevTools, or a payload from an older server: nothing to report against.
  if (notificationId === null) return false;
  try {
    const subscription = await registration.pushManager.getSubscription();
    const json = subscription ? toSubscriptionJson(subscription.toJSON()) : null;
    if (!json) return false;
    const event: NotificationEventRequest = { notificationId, type, endpoint: json.endpoint, auth: json.keys.auth };
    if (type === "clicked" && action !== undefined) event.action = action;
    await api.reportEvent(event);
    return true;
  } catch (error) {
    console.warn(`Could not report the notification as ${type}`, error);
    return false;
  }
}

/**
 * The id Sino's worker stored (`notificationId`), or the one a declarative push carries in its
 * `notification.data` (`sinoId`) when the browser showed it itself.
 */
export function notificationIdOf(data: unknown): string | null {
  if (typeof data !== "object" || data === null) return null;
  const record = data as Partial<NotificationData> & { sinoId?: unknown };
  const id = record.notificationId ?? record.sinoId;
  return typeof id === "string" && id !== "" ? id : null;
}
