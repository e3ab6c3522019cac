import type { NotificationActionId, SinoClick } from "../messaging/click-message.js";
import type { NotificationData } from "./notification-content.js";
import { isActionId } from "./notification-content.js";
import { resolveNotificationLink } from "./notification-link.js";
import { notificationIdOf } from "./report-event.js";

/** What a click on a notification leads to: the link to open (null: refused) and what the page is told. */
export interface ClickPlan {
  readonly link: string | null;
  /** The action button clicked, for the report; undefined for the notification's body. */
  readonly action: NotificationActionId | undefined;
  readonly click: SinoClick;
}

/** The parts of a clicked Notification the plan reads (`actions[].navigate`: a declarative one's links). */
export interface ClickedNotification {
  readonly data: unknown;
  readonly actions?: ReadonlyArray<{ readonly action: string; readonly navigate?: string | null }>;
}

/**
 * Decides what a `notificationclick` does. `action` is the event's `action`: "" for the body, the
 * button's id ("1", "2") otherwise. An action opens its own link; the body opens the notification's
 * link. A notification the browser showed from a declarative push carries `{ sinoId, url, data }`
 * and its buttons' links in `actions[].navigate`; one Sino's worker showed carries
 * `NotificationData`. Links pass the same policy either way (resolveNotificationLink).
 */
export function planNotificationClick(notification: ClickedNotification, action: string, origin: string): ClickPlan {
  const data = (typeof notification.data === "object" && notification.data !== null ? notification.data : {}) as Partial<NotificationData>;
  const button = isActionId(action) ? action : undefined;
  const raw = button === undefined ? data.url : (data.actions?.[button] ?? notification.actions?.find((a) => a.action === button)?.navigate);
  const link = resolveNotificationLink(raw ?? null, origin);
  return {
    link,
    action: button,
    click: { notificationId: notificationIdOf(data), action: button ?? "open", url: link, data: data.data ?? null },
  };
}
