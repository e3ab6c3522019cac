/**
 * Whether this browser shows declarative push messages itself (W3C Push API, "declarative push
 * message"; WebKit's "Meet Declarative Web Push", Safari 18.4 on iOS/iPadOS and 18.5 on macOS).
 * The feature's detection hook is the `PushManager` the spec exposes on `Window` (`window.pushManager`,
 * so a page can subscribe without a service worker): only a browser that implements declarative push
 * has it. Chrome has none; Firefox ESR 153 has none either (it only counts declarative messages in
 * its telemetry, and no preference turns the feature on; see the README). The answer is sent with
 * every registration, so a browser that stops having it gets Sino's classic payload again.
 */
export function supportsDeclarativePush(win: Window): boolean {
  try {
    return "pushManager" in win && (win as Window & { pushManager?: unknown }).pushManager != null;
  } catch {
    // A cross-origin or sandboxed window that throws on access: assume the classic form.
    return false;
  }
}
