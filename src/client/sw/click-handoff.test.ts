import { describe, expect, it, vi } from "vitest";
import { createClickHandoff } from "./click-handoff.js";
import type { SinoClick } from "../messaging/click-message.js";

const click: SinoClick = { notificationId: "7", action: "1", url: "https://site.example/avisos/7", data: { tela: "avisos" } };

interface FakeWindow {
  id: string;
  url: string;
  posted: unknown[];
  focused: number;
}

/** The part of `Clients` the handoff uses: windows open now, and openWindow that makes a new one. */
function fakeClients(open: FakeWindow[] = [], opens: "window" | "nothing" = "window") {
  let next = 1;
  const asClient = (w: FakeWindow) => ({
    id: w.id,
    url: w.url,
    focus: async () => {
      w.focused += 1;
      return asClient(w);
    },
    postMessage: (message: unknown) => void w.posted.push(message),
  });
  const opened: FakeWindow[] = [];
  const clients = {
    matchAll: async () => open.map(asClient),
    openWindow: async (url: string) => {
      if (opens === "nothing") return null;
      const w: FakeWindow = { id: `new-${next++}`, url, posted: [], focused: 0 };
      opened.push(w);
      return asClient(w);
    },
  };
  return { clients: clients as unknown as Clients, opened };
}

const message = { type: "sino:click", notificationId: "7", action: "1", url: click.url, data: { tela: "avisos" } };

describe("createClickHandoff", () => {
  it("focuses a window already at the link and posts the click to it at once", async () => {
    const existing: FakeWindow = { id: "a", url: click.url!, posted: [], focused: 0 };
    const { clients, opened } = fakeClients([existing]);
    await createClickHandoff(clients).deliver(click.url!, click);
    expect(existing).toMatchObject({ focused: 1, posted: [message] });
    expect(opened).toEqual([]);
  });

  it("holds the click for a window it opened until that page says it listens", async () => {
    const { clients, opened } = fakeClients();
    const handoff = createClickHandoff(clients, { readyTimeoutMs: 60_000 });
    const delivered = handoff.deliver(click.url!, click);
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]!.posted).toEqual([]);
    handoff.pageReady({ id: "someone-else", url: "https://site.example/outra" });
    expect(opened[0]!.posted).toEqual([]);
    handoff.pageReady({ id: opened[0]!.id, url: click.url! });
    await delivered;
    expect(opened[0]!.posted).toEqual([message]);
  });

  it("posts at once when the new page said it listens before openWindow resolved", async () => {
    const { clients, opened } = fakeClients();
    const handoff = createClickHandoff(clients, { readyTimeoutMs: 60_000 });
    // The page's script ran before openWindow's promise settled in the worker.
    handoff.pageReady({ id: "new-1", url: click.url! });
    await handoff.deliver(click.url!, click);
    expect(opened[0]!.posted).toEqual([message]);
  });

  it("does not take an old announcement from another tab at the same URL for the new page", async () => {
    const { clients, opened } = fakeClients();
    const handoff = createClickHandoff(clients, { readyTimeoutMs: 60_000 });
    handoff.pageReady({ id: "closed-tab", url: click.url! });
    const delivered = handoff.deliver(click.url!, click);
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]!.posted).toEqual([]);
    handoff.pageReady({ id: opened[0]!.id, url: click.url! });
    await delivered;
    expect(opened[0]!.posted).toEqual([message]);
  });

  it("posts anyway when the page never says it listens (the client message queue may still deliver it)", async () => {
    vi.useFakeTimers();
    try {
      const { clients, opened } = fakeClients();
      const delivered = createClickHandoff(clients, { readyTimeoutMs: 5_000 }).deliver(click.url!, click);
      await vi.waitFor(() => expect(opened).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(5_000);
      await delivered;
      expect(opened[0]!.posted).toEqual([message]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("posts nothing when the link opened outside the site (openWindow gives no client)", async () => {
    const { clients } = fakeClients([], "nothing");
    await expect(createClickHandoff(clients).deliver("https://elsewhere.example/", click)).resolves.toBeUndefined();
  });
});
