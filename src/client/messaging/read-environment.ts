import type { MessagingEnvironment } from "./availability.js";

/** The facts `detectMessaging` needs, read from a real page. */
export function readMessagingEnvironment(win: Window): MessagingEnvironment {
  const nav = win.navigator as Navigator & { standalone?: boolean };
  return {
    isSecureContext: win.isSecureContext,
    hasServiceWorker: "serviceWorker" in nav,
    hasPushManager: "PushManager" in win,
    hasNotification: "Notification" in win,
    userAgent: nav.userAgent,
    // iOS exposes navigator.standalone; other browsers report an installed app via display-mode.
    standalone: nav.standalone === true || win.matchMedia?.("(display-mode: standalone)").matches === true,
    maxTouchPoints: nav.maxTouchPoints,
    platform: nav.platform,
  };
}
