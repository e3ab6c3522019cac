/// <reference lib="webworker" />
import type { NotificationData } from "./notification-content.js";

/**
 * A push the worker received but could not show as sent: its payload was unreadable (the fallback
 * notification is shown instead, so the browser does not count a silent push) or
 * `showNotification` itself failed. Reported as `not_shown` against the notification when its id can be
 * read at all: iOS and Chrome revoke sites whose pushes show nothing, so the operator must see them.
 */

/** The notification's id from a payload the content parser refused, when the JSON still names one. */
export function notificationIdOfRaw(text: string | null): string | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null) return null;
    const record = value as { id?: unknown; notification?: { data?: { sinoId?: unknown } } };
    const id = record.id ?? record.notification?.data?.sinoId;
    if (typeof id === "number" && Number.isSafeInteger(id)) return String(id);
    return typeof id === "string" && id !== "" ? id : null;
  } catch {
    return null;
  }
}

/** The data to report a fallback with: the raw payload's id, when the shown notification has none. */
export function unshownData(shown: NotificationData, payloadText: string | null): NotificationData | null {
  if (shown.notificationId !== undefined) return null;
  const id = notificationIdOfRaw(payloadText);
  return id === null ? null : { url: null, notificationId: id };
}
