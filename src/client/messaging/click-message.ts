/**
 * The messages between Sino's service worker and the pages it controls about a notification
 * click. Kept free of the WebWorker lib so the page side (sino-client) and the worker share them.
 */

import type { ActionId } from "../../shared/api/notification-payload.js";

/** The ids Sino gives a notification's action buttons, in order ("1", "2"). */
export type NotificationActionId = ActionId;

/** What was clicked: the notification's body ("open") or one of its action buttons. */
export type SinoClickAction = "open" | NotificationActionId;

/**
 * A click on a Sino notification, as the site's page receives it (`sino:click` on `window`,
 * `useSino().onClick`): which notification, what was clicked, the link it opened and the
 * notification's `data` (any JSON the sender attached; null when none).
 */
export interface SinoClick {
  readonly notificationId: string | null;
  readonly action: SinoClickAction;
  readonly url: string | null;
  readonly data: unknown;
}

/** Worker → page: a notification was clicked (posted to the focused or newly opened window). */
export const CLICK_MESSAGE = "sino:click";
/**
 * Page → worker: this page listens for clicks now. A window the worker opened may not be ready for
 * a message when `openWindow()` resolves (a page's script, an `async` embed or a lazily mounted
 * React app, attaches its listener later), so the worker keeps the click until this arrives.
 */
export const PAGE_READY_MESSAGE = "sino:page-ready";

export interface ClickMessage extends SinoClick {
  readonly type: typeof CLICK_MESSAGE;
}

export function clickMessage(click: SinoClick): ClickMessage {
  return { type: CLICK_MESSAGE, notificationId: click.notificationId, action: click.action, url: click.url, data: click.data };
}

/** The click a message carries, or null when the message is not one of Sino's clicks. */
export function readClickMessage(message: unknown): SinoClick | null {
  if (typeof message !== "object" || message === null) return null;
  const m = message as Partial<Record<keyof ClickMessage, unknown>>;
  if (m.type !== CLICK_MESSAGE) return null;
  const action = m.action === "1" || m.action === "2" ? m.action : "open";
  return {
    notificationId: typeof m.notificationId === "string" && m.notificationId !== "" ? m.notificationId : null,
    action,
    url: typeof m.url === "string" ? m.url : null,
    data: m.data === undefined ? null : m.data,
  };
}

export function isPageReadyMessage(message: unknown): boolean {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === PAGE_READY_MESSAGE;
}
