/**
 * Delivers a push straight to the page's service worker through the DevTools protocol
 * (ServiceWorker.deliverPushMessage): no push service, no encryption, the worker's real `push` handler runs.
 */
import type { BrowserContext, CDPSession, Page } from "playwright-core";

export interface ShownSignal {
  type: "sino:shown";
  tag: string | null;
  title: string;
}

export interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: unknown;
}

export interface CdpPush {
  deliver(data: string): Promise<void>;
  close(): Promise<void>;
}

/** Attaches to the page, waits for the worker registered at `scope` to be known, and returns a sender. */
export async function attachCdpPush(context: BrowserContext, page: Page, scope: string): Promise<CdpPush> {
  const session: CDPSession = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    session.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const match = registrations.find((r) => r.scopeURL === scope && !r.isDeleted);
      if (match) resolve(match.registrationId);
    });
  });
  await session.send("ServiceWorker.enable");
  const id = await registrationId;
  const origin = new URL(scope).origin;
  return {
    deliver: async (data) => {
      await session.send("ServiceWorker.deliverPushMessage", { origin, registrationId: id, data });
    },
    close: () => session.detach(),
  };
}

/** Starts collecting the worker's "shown" signals in the page; call before delivering. */
export async function listenForShown(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __sinoShown?: unknown[] };
    w.__sinoShown = [];
    navigator.serviceWorker.addEventListener("message", (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === "sino:shown") w.__sinoShown?.push(event.data);
    });
  });
}

/**
 * Waits for the n-th "shown" signal, then lists what the registration shows. Asking before the
 * signal intermittently returns [] in Chromium.
 */
export async function shownNotifications(page: Page, count: number): Promise<{ signals: ShownSignal[]; notifications: ShownNotification[] }> {
  await page.waitForFunction((n) => ((window as unknown as { __sinoShown?: unknown[] }).__sinoShown?.length ?? 0) >= n, count);
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const notifications = await registration.getNotifications();
    return {
      signals: (window as unknown as { __sinoShown: ShownSignal[] }).__sinoShown,
      notifications: notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })),
    };
  });
}
