import type { Browser } from "puppeteer-core";

/**
 * Clicks a notification in Firefox the way Firefox's own alert window does: headless Firefox shows
 * notifications in its XUL alert window (`alerts.useSystemBackend = false`), whose listener is the
 * one the system backends call. Calling it with an `nsIAlertAction` (what a click on an action
 * button passes) makes Firefox fire a trusted `notificationclick` with that `action` in the service
 * worker, with the window interaction (`clients.openWindow`) a real click allows. The XUL alert has
 * no buttons for actions, hence the call instead of a mouse click.
 * Needs `launchFirefox({ systemAccess: true })`. Waits (bounded) for the alert titled `title`.
 */
export async function clickFirefoxNotification(browser: Browser, title: string, action: string | null = null): Promise<void> {
  const connection = (browser as unknown as { connection: { send(method: string, params: unknown): Promise<{ result: unknown }> } }).connection;
  const tree = (await connection.send("browsingContext.getTree", { "moz:scope": "chrome" })).result as { contexts: Array<{ context: string; url: string }> };
  const chrome = tree.contexts.find((c) => c.url === "chrome://browser/content/browser.xhtml") ?? tree.contexts[0];
  if (!chrome) throw new Error("no chrome context: launch Firefox with systemAccess");
  const expression = `(async () => {
    const title = ${JSON.stringify(title)};
    const action = ${JSON.stringify(action)};
    for (let i = 0; i < 100; i++) {
      const windows = Services.wm.getEnumerator("alert:alert");
      while (windows.hasMoreElements()) {
        const w = windows.getNext();
        if (w.document.getElementById("alertTitleLabel")?.getAttribute("value") !== title || !w.gAlertListener) continue;
        const subject = action === null ? null : { action, title: action, QueryInterface: ChromeUtils.generateQI(["nsIAlertAction"]) };
        w.gAlertListener.observe(subject, "alertclickcallback", w.gAlertCookie);
        return "clicked";
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return "no alert titled " + title;
  })()`;
  const answer = (await connection.send("script.evaluate", { expression, target: { context: chrome.context }, awaitPromise: true })).result as {
    type: string;
    result?: { value?: unknown };
    exceptionDetails?: unknown;
  };
  if (answer.type !== "success" || answer.result?.value !== "clicked") throw new Error(`could not click the notification: ${JSON.stringify(answer)}`);
}
