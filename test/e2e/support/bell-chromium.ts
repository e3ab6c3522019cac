import { afterAll, beforeAll } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../support/browser.js";
import { requireBuiltWebApp } from "./built-web-app.js";

/** What the seed's bell shows and logs, word for word (the bell, the embedded bell and @sino/react). */
export const BELL_TEXT = {
  enable: "Habilitar Notificações",
  disable: "Desabilitar Notificações",
  notInitialised: "Não inicializando o Firebase no webview",
  noToken: "No registration token available. Request permission to generate one.",
  tokenError: "An error occurred while retrieving token",
};

/**
 * One Chromium for the file (beforeAll, after checking the built web app; closed afterAll) that
 * resolves `insecureHost` to 127.0.0.1 without treating it as a secure context. Returns a getter:
 * the browser exists only once the hook has run.
 */
export function useChromiumWithInsecureHost(insecureHost: string): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    requireBuiltWebApp();
    browser = await launchChromium({ args: [`--host-resolver-rules=MAP ${insecureHost} 127.0.0.1`] });
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error("the browser is read before beforeAll launched it");
    return browser;
  };
}

/**
 * An init script for a page whose visitor answers "Permitir" when asked: headless Chromium cannot
 * show its permission dialog, so `Notification.permission` starts as "default", turns "granted"
 * on `requestPermission()`, and `window.asked` counts how often the page asked.
 */
export function answerPermissionWhenAsked(): void {
  let answer: NotificationPermission = "default";
  let asked = 0;
  Object.defineProperty(Notification, "permission", { get: () => answer });
  Notification.requestPermission = async () => {
    asked += 1;
    (window as unknown as { asked: number }).asked = asked;
    answer = "granted";
    return answer;
  };
}
