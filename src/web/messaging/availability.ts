/**
 * Whether this browser can hold a Web Push subscription, which decides whether the bell shows. One pure
 * function so the whole decision is table-tested against real user-agent strings.
 */

/** What the decision needs to know about the environment; `readMessagingEnvironment` fills it in a page. */
export interface MessagingEnvironment {
  isSecureContext: boolean;
  hasServiceWorker: boolean;
  hasPushManager: boolean;
  hasNotification: boolean;
  userAgent: string;
  /** `navigator.standalone` (iOS home-screen web app) or `display-mode: standalone`. */
  standalone: boolean;
  maxTouchPoints?: number;
  platform?: string;
}

export type UnavailableReason = "insecure" | "unsupported" | "webview" | "ios-browser-tab";

export type MessagingAvailability =
  | { available: true }
  | { available: false; reason: UnavailableReason };

/**
 * In-app browsers are embedded webviews: push subscriptions made there belong to the host app's
 * webview profile, cannot be reliably shown and are lost when the app is closed.
 */
const IN_APP_BROWSER =
  /\b(FBAN|FBAV|FB_IAB|FBIOS|Instagram|Line\/|MicroMessenger|LinkedInApp|Snapchat|musical_ly|BytedanceWebview|Pinterest\/)/i;

/** Android System WebView marks itself with `; wv)` (Chrome 4x+); older ones as `Version/x.y Chrome/`. */
const ANDROID_WEBVIEW = /Android.*(;\s*wv\)|Version\/\d+\.\d+\s+Chrome\/)/;

const IOS_DEVICE = /\b(iPhone|iPad|iPod)\b/;

/** Web Push reached iOS/iPadOS in 16.4, and only for web apps added to the home screen. */
const IOS_MIN_PUSH_VERSION: readonly [number, number] = [16, 4];

export function detectMessaging(env: MessagingEnvironment): MessagingAvailability {
  // Push API and service workers exist only in secure contexts (W3C Push API §1, SW spec §6.1).
  if (!env.isSecureContext) return unavailable("insecure");

  const ua = env.userAgent;
  if (IN_APP_BROWSER.test(ua) || ANDROID_WEBVIEW.test(ua)) return unavailable("webview");

  if (isAppleMobile(env)) {
    if (!env.standalone) {
      // A WKWebView inside an app has no `Safari/` token; Safari, Chrome (CriOS), Firefox (FxiOS)
      // and Edge (EdgiOS) tabs do — and none of them may subscribe: iOS only allows Web Push in
      // home-screen web apps (WebKit blog, "Web Push for Web Apps on iOS and iPadOS", 2023).
      // iPadOS pretends to be a Mac, so a desktop UA there still carries `Safari/`.
      return /\bSafari\//.test(ua) ? unavailable("ios-browser-tab") : unavailable("webview");
    }
    const version = appleOsVersion(ua);
    if (version !== null && compareVersion(version, IOS_MIN_PUSH_VERSION) < 0) {
      return unavailable("unsupported");
    }
  }

  if (!env.hasServiceWorker || !env.hasPushManager || !env.hasNotification) {
    return unavailable("unsupported");
  }
  return { available: true };
}

function unavailable(reason: UnavailableReason): MessagingAvailability {
  return { available: false, reason };
}

/**
 * iPhone/iPod/iPad by UA, or an iPad in "desktop website" mode (the default since iPadOS 13): it
 * reports a Macintosh UA and platform `MacIntel`, but Macs have no touch screen.
 */
function isAppleMobile(env: MessagingEnvironment): boolean {
  if (IOS_DEVICE.test(env.userAgent)) return true;
  const looksLikeMac = /Macintosh/.test(env.userAgent) || env.platform === "MacIntel";
  return looksLikeMac && (env.maxTouchPoints ?? 0) > 1;
}

/** `OS 16_4` (iPhone/iPad UA) or `Version/16.4` (iPadOS desktop UA); null when neither is there. */
function appleOsVersion(ua: string): [number, number] | null {
  const os = /\bOS (\d+)_(\d+)/.exec(ua) ?? /\bVersion\/(\d+)\.(\d+)/.exec(ua);
  if (!os) return null;
  return [Number(os[1]), Number(os[2])];
}

function compareVersion(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] !== b[0] ? a[0] - b[0] : a[1] - b[1];
}
