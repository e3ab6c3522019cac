/// <reference lib="webworker" />
import { clickMessage, type SinoClick } from "../messaging/click-message.js";

/** A page that told the worker it listens (`sino:page-ready`). */
export interface ReadyPage {
  readonly id: string;
  readonly url: string;
}

export interface ClickHandoff {
  /**
   * Focuses the window already showing `link` or opens it, then hands it the click
   * (`postMessage({ type: "sino:click", … })`). Resolves once the click is handed over or given
   * up: run it inside the click's `waitUntil`, which keeps the worker (and this memory) alive.
   */
  deliver(link: string, click: SinoClick): Promise<void>;
  /** A page is listening (its `sino:page-ready` message). */
  pageReady(page: ReadyPage): void;
}

export interface ClickHandoffOptions {
  /**
   * How long a newly opened window may take to say it listens. Past it the click is posted anyway:
   * a page that listens later through `onmessage` or `startMessages()` still gets it from the
   * client message queue, and the worker must not be kept alive for nothing.
   */
  readyTimeoutMs?: number;
}

/** Pages that said they listen and were not yet matched to a click: a handful is plenty. */
const MAX_READY_PAGES = 20;

/**
 * Hands a notification click to the site's page. A window that was already open listens already
 * (its Sino client started long ago) and gets the click at once. A window the worker opens is
 * another matter: `openWindow()` may resolve before or after the page's script has attached its
 * listener (an `async` embed, a lazily mounted React app), and a message posted before that can be
 * lost. So the page announces itself (`sino:page-ready`, on every start of its Sino client), and
 * the worker posts the click when both are known, whichever comes first: the announcement (by
 * client id, or by the URL it opened) or the opened window.
 */
export function createClickHandoff(clients: Clients, options: ClickHandoffOptions = {}): ClickHandoff {
  const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
  /** Announcements no opened window has claimed yet (the page was quicker than `openWindow()`). */
  let ready: Array<ReadyPage & { at: number }> = [];
  const waiting = new Set<{ matches(page: ReadyPage): boolean; resolve(): void }>();

  function pageReady(page: ReadyPage): void {
    let matched = false;
    for (const waiter of [...waiting]) {
      if (!waiter.matches(page)) continue;
      waiting.delete(waiter);
      waiter.resolve();
      matched = true;
    }
    if (!matched) ready = [...ready.filter((p) => p.id !== page.id), { id: page.id, url: page.url, at: Date.now() }].slice(-MAX_READY_PAGES);
  }

  /** Resolves when the page in `client` (opened at `link`) has said it listens, or at the timeout. */
  function whenListening(client: WindowClient, link: string): Promise<void> {
    const matches = (page: ReadyPage): boolean => page.id === client.id || page.url === client.url || page.url === link;
    // An earlier announcement counts only from this very client: another tab once open at the same
    // URL (since closed) must not make the worker post before the new page listens.
    const seen = ready.find((page) => page.id === client.id && Date.now() - page.at <= readyTimeoutMs);
    if (seen) {
      ready = ready.filter((page) => page !== seen);
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const waiter = {
        matches,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        waiting.delete(waiter);
        resolve();
      }, readyTimeoutMs);
      waiting.add(waiter);
    });
  }

  async function deliver(link: string, click: SinoClick): Promise<void> {
    const windows = await clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url === link);
    if (open) {
      // focus() may reject when the browser does not let the worker focus now; the page still listens.
      await open.focus().catch(() => undefined);
      open.postMessage(clickMessage(click));
      return;
    }
    // openWindow is only allowed during a notificationclick (user activation). It resolves null for a
    // link on another origin: the tab opens, but it is not a page of this site and gets no message.
    const opened = await clients.openWindow(link);
    if (!opened) return;
    await whenListening(opened, link);
    opened.postMessage(clickMessage(click));
  }

  return { deliver, pageReady };
}
