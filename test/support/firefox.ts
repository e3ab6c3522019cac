import { accessSync, constants } from "node:fs";
import puppeteer, { type Browser } from "puppeteer-core";

export const FIREFOX_PATH = "/usr/bin/firefox-esr";

export interface FirefoxOptions {
  /** `ws://` URL of a Mozilla push server (see test/support/mozilla-push); push stays off without it. */
  readonly pushServerUrl?: string;
  /** The default answer to `Notification.requestPermission()` and push permission. */
  readonly notifications?: "granted" | "denied" | "prompt";
  /** More preferences, e.g. `{ "dom.push.loglevel": "debug" }` to see the push client's log. */
  readonly extraPrefs?: Readonly<Record<string, unknown>>;
  /** Pipe Firefox's stdout/stderr (its console and `dom.push` log) into ours. */
  readonly dumpio?: boolean;
  /**
   * Let WebDriver BiDi reach Firefox's chrome (privileged) contexts (`MOZ_REMOTE_ALLOW_SYSTEM_ACCESS`),
   * e.g. to click a notification the way Firefox's own alert does (firefox-notification-click.ts).
   */
  readonly systemAccess?: boolean;
}

/**
 * Throws a message that says how to install Firefox ESR when the binary is missing: a missing
 * browser must fail the test run, never skip it (a skipped browser test would pass unseen).
 */
export function assertFirefoxInstalled(path: string = FIREFOX_PATH): void {
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new Error(
      `Firefox ESR not found at ${path}. Install it with: apt-get update && apt-get install -y firefox-esr ` +
        "(the browser tests use the Debian binary through puppeteer-core; they do not download a browser).",
    );
  }
}

/**
 * The preferences that make Firefox's push client use a local Mozilla push server. Each one was
 * needed: the Remote Agent's "recommended preferences" turn
 * `dom.push.connection.enabled` off unless the profile sets it, and a `ws://` server URL is refused
 * without `dom.push.testing.allowInsecureServerURL`.
 */
export function firefoxPushPrefs(pushServerUrl: string): Record<string, unknown> {
  return {
    "dom.push.serverURL": pushServerUrl,
    "dom.push.testing.allowInsecureServerURL": true,
    "dom.push.connection.enabled": true,
    "dom.push.enabled": true,
    // Show notifications through Firefox's own alert window, not the desktop's (none in CI).
    "alerts.useSystemBackend": false,
  };
}

const PERMISSION_PREF = { prompt: 0, granted: 1, denied: 2 } as const;

/**
 * Launches the Debian Firefox ESR headless through puppeteer-core over WebDriver BiDi. Reuse one
 * browser per test file (launch takes ~2 s); use `browser.createBrowserContext()` per test.
 */
export async function launchFirefox(options: FirefoxOptions = {}): Promise<Browser> {
  assertFirefoxInstalled();
  return puppeteer.launch({
    browser: "firefox",
    executablePath: FIREFOX_PATH,
    headless: true,
    dumpio: options.dumpio ?? false,
    ...(options.systemAccess === true ? { env: { ...process.env, MOZ_REMOTE_ALLOW_SYSTEM_ACCESS: "1" } } : {}),
    extraPrefsFirefox: {
      "permissions.default.desktop-notification": PERMISSION_PREF[options.notifications ?? "granted"],
      ...(options.pushServerUrl === undefined ? { "dom.push.connection.enabled": false } : firefoxPushPrefs(options.pushServerUrl)),
      ...options.extraPrefs,
    },
  });
}
