import { describe, expect, it } from "vitest";
import { detectMessaging } from "./availability.js";
import type { MessagingEnvironment, MessagingAvailability } from "./availability.js";

const UA = {
  androidChrome:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36",
  androidWebView:
    "Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/124.0.6367.82 Mobile Safari/537.36",
  androidOldWebView:
    "Mozilla/5.0 (Linux; Android 4.4.2; Nexus 5 Build/KOT49H) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/30.0.0.0 Mobile Safari/537.36",
  androidSamsungInternet:
    "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36",
  androidFirefox: "Mozilla/5.0 (Android 14; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0",
  androidInstagram:
    "Mozilla/5.0 (Linux; Android 14; Pixel 7 Build/UQ1A.240205.004; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/122.0.6261.119 Mobile Safari/537.36 Instagram 321.0.0.39.106 Android",
  androidFacebook:
    "Mozilla/5.0 (Linux; Android 13; moto g(60)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.230 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/447.0.0.38.114;]",
  iosSafari17:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1",
  // A home-screen web app reports the WebKit UA without the `Version/` and `Safari/` tokens.
  iosStandalone17: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  iosStandalone164: "Mozilla/5.0 (iPhone; CPU iPhone OS 16_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  iosStandalone163: "Mozilla/5.0 (iPhone; CPU iPhone OS 16_3_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  iosStandalone15: "Mozilla/5.0 (iPhone; CPU iPhone OS 15_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  iosChrome:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1",
  iosFirefox:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15",
  iosEdge:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/124.0.2478.50 Mobile/15E148 Safari/605.1.15",
  iosWkWebView: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
  iosInstagram:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 325.0.2.20.108 (iPhone15,3; iOS 17_4; pt_BR; pt; scale=3.00; 1290x2796; 587402286)",
  iosFacebook:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/459.0.0.36.107;FBBV/585232937;FBDV/iPhone15,3;FBMD/iPhone;FBSN/iOS;FBSV/17.4;FBSS/3;FBCR/;FBID/phone;FBLC/pt_BR;FBOP/80]",
  ipadSafariTab: "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  ipadDesktopUa:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  ipadDesktopUaStandalone: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko)",
  macSafari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  macSafari15:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/15.6 Safari/605.1.15",
  desktopChrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  desktopFirefox: "Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0",
  desktopEdge:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51",
  headlessChromium:
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/139.0.0.0 Safari/537.36",
};

/** A full-featured secure browser; each case overrides what differs. */
function env(overrides: Partial<MessagingEnvironment> & { userAgent: string }): MessagingEnvironment {
  return {
    isSecureContext: true,
    hasServiceWorker: true,
    hasPushManager: true,
    hasNotification: true,
    standalone: false,
    maxTouchPoints: 0,
    platform: "Win32",
    ...overrides,
  };
}

const ON: MessagingAvailability = { available: true };
const off = (reason: "insecure" | "unsupported" | "webview" | "ios-browser-tab"): MessagingAvailability => ({
  available: false,
  reason,
});

/** Apple devices without Web Push support expose no PushManager (and no Notification before 16.4). */
const noPush = { hasPushManager: false, hasNotification: false };
const iphone = { platform: "iPhone", maxTouchPoints: 5 };
const ipad = { platform: "MacIntel", maxTouchPoints: 5 };

const cases: Array<[string, MessagingEnvironment, MessagingAvailability]> = [
  ["Android Chrome", env({ userAgent: UA.androidChrome, platform: "Linux armv81", maxTouchPoints: 5 }), ON],
  ["Android Samsung Internet", env({ userAgent: UA.androidSamsungInternet, maxTouchPoints: 5 }), ON],
  ["Android Firefox", env({ userAgent: UA.androidFirefox, maxTouchPoints: 5 }), ON],
  ["Android System WebView (wv)", env({ userAgent: UA.androidWebView, maxTouchPoints: 5 }), off("webview")],
  ["old Android WebView (Version/4.0 Chrome/)", env({ userAgent: UA.androidOldWebView, ...noPush }), off("webview")],
  ["Instagram in-app browser on Android", env({ userAgent: UA.androidInstagram }), off("webview")],
  ["Facebook in-app browser on Android (no wv token)", env({ userAgent: UA.androidFacebook }), off("webview")],
  ["iOS Safari tab", env({ userAgent: UA.iosSafari17, ...iphone, ...noPush }), off("ios-browser-tab")],
  ["iOS Safari tab even if a future iOS exposed PushManager", env({ userAgent: UA.iosSafari17, ...iphone }), off("ios-browser-tab")],
  ["iOS Chrome (CriOS) tab", env({ userAgent: UA.iosChrome, ...iphone, ...noPush }), off("ios-browser-tab")],
  ["iOS Firefox (FxiOS) tab", env({ userAgent: UA.iosFirefox, ...iphone, ...noPush }), off("ios-browser-tab")],
  ["iOS Edge (EdgiOS) tab", env({ userAgent: UA.iosEdge, ...iphone, ...noPush }), off("ios-browser-tab")],
  ["iOS 17 home-screen web app", env({ userAgent: UA.iosStandalone17, ...iphone, standalone: true }), ON],
  ["iOS 16.4 home-screen web app", env({ userAgent: UA.iosStandalone164, ...iphone, standalone: true }), ON],
  ["iOS 16.3 home-screen web app", env({ userAgent: UA.iosStandalone163, ...iphone, standalone: true, ...noPush }), off("unsupported")],
  ["iOS 15 home-screen web app", env({ userAgent: UA.iosStandalone15, ...iphone, standalone: true, ...noPush }), off("unsupported")],
  ["iOS 16.3 standalone even if PushManager were present", env({ userAgent: UA.iosStandalone163, ...iphone, standalone: true }), off("unsupported")],
  ["iOS 17 standalone with Web Push disabled in settings", env({ userAgent: UA.iosStandalone17, ...iphone, standalone: true, ...noPush }), off("unsupported")],
  ["iOS WKWebView in an app", env({ userAgent: UA.iosWkWebView, ...iphone, ...noPush }), off("webview")],
  ["Instagram in-app browser on iOS", env({ userAgent: UA.iosInstagram, ...iphone, ...noPush }), off("webview")],
  ["Facebook in-app browser on iOS (FBAN/FBAV)", env({ userAgent: UA.iosFacebook, ...iphone, ...noPush }), off("webview")],
  ["Instagram on iOS even when standalone is reported", env({ userAgent: UA.iosInstagram, ...iphone, standalone: true }), off("webview")],
  ["iPad Safari tab with an iPad UA", env({ userAgent: UA.ipadSafariTab, ...ipad, ...noPush }), off("ios-browser-tab")],
  ["iPadOS desktop UA with touch points (Safari tab)", env({ userAgent: UA.ipadDesktopUa, ...ipad, ...noPush }), off("ios-browser-tab")],
  ["iPadOS desktop UA home-screen web app", env({ userAgent: UA.ipadDesktopUaStandalone, ...ipad, standalone: true }), ON],
  ["macOS Safari 17 (no touch points)", env({ userAgent: UA.macSafari, platform: "MacIntel", maxTouchPoints: 0 }), ON],
  ["macOS Safari 15 without PushManager", env({ userAgent: UA.macSafari15, platform: "MacIntel", ...noPush }), off("unsupported")],
  ["desktop Chrome", env({ userAgent: UA.desktopChrome }), ON],
  ["desktop Firefox", env({ userAgent: UA.desktopFirefox, platform: "Linux x86_64" }), ON],
  ["desktop Edge", env({ userAgent: UA.desktopEdge }), ON],
  ["headless Chromium", env({ userAgent: UA.headlessChromium, platform: "Linux x86_64" }), ON],
  ["desktop Chrome without service workers (e.g. disabled by policy)", env({ userAgent: UA.desktopChrome, hasServiceWorker: false }), off("unsupported")],
  ["desktop Chrome without Notification", env({ userAgent: UA.desktopChrome, hasNotification: false }), off("unsupported")],
  ["desktop Chrome on an insecure origin", env({ userAgent: UA.desktopChrome, isSecureContext: false, hasPushManager: false, hasServiceWorker: false }), off("insecure")],
  ["Android WebView on an insecure origin reports insecure first", env({ userAgent: UA.androidWebView, isSecureContext: false }), off("insecure")],
  ["iOS Safari tab on an insecure origin", env({ userAgent: UA.iosSafari17, ...iphone, isSecureContext: false }), off("insecure")],
];

describe("detectMessaging", () => {
  it.each(cases)("%s", (_name, environment, expected) => {
    expect(detectMessaging(environment)).toEqual(expected);
  });

  it("treats a Mac UA with touch points as an iPad even without a platform", () => {
    expect(detectMessaging(env({ userAgent: UA.ipadDesktopUa, platform: undefined, maxTouchPoints: 5 }))).toEqual(
      off("ios-browser-tab"),
    );
  });
});
