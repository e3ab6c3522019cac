import { describe, expect, it, vi } from "vitest";
import { createSinoClient } from "./sino-client.js";
import type { SinoSnapshot } from "./sino-client.js";
import { CONSOLE_MESSAGES } from "./messaging/console-messages.js";

const CHROME_UA = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36";
const VAPID = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

interface FakeBrowser {
  permission: NotificationPermission;
  /** What `requestPermission()` answers. */
  answer: NotificationPermission;
  subscription: { endpoint: string } | null;
  registered: Array<{ url: string; scope: string | undefined }>;
  requests: Array<{ method: string; url: string; body: unknown }>;
  logs: string[];
}

/**
 * Just enough of a page for the client: a secure context, a service worker container whose
 * registration has a push manager, `Notification`, and a fetch that plays the Sino API.
 */
function fakePage(initial: Partial<FakeBrowser> = {}) {
  const state: FakeBrowser = { permission: "default", answer: "granted", subscription: null, registered: [], requests: [], logs: [], ...initial };
  const asSubscription = (sub: { endpoint: string }) => ({
    endpoint: sub.endpoint,
    options: { applicationServerKey: null },
    toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: { p256dh: "p", auth: "a" } }),
    unsubscribe: async () => {
      state.subscription = null;
      return true;
    },
  });
  const pushManager = {
    getSubscription: async () => (state.subscription ? asSubscription(state.subscription) : null),
    subscribe: async () => {
      state.subscription = { endpoint: "https://push.example/1" };
      return asSubscription(state.subscription);
    },
  };
  const registration = { pushManager };
  const win = {
    isSecureContext: true,
    PushManager: class {},
    Notification: {
      get permission() {
        return state.permission;
      },
      requestPermission: async () => (state.permission = state.answer),
    },
    matchMedia: () => ({ matches: false }),
    navigator: {
      userAgent: CHROME_UA,
      platform: "Linux x86_64",
      maxTouchPoints: 0,
      serviceWorker: {
        register: async (url: string, options?: { scope?: string }) => {
          state.registered.push({ url, scope: options?.scope });
          return registration;
        },
        ready: Promise.resolve(registration),
      },
    },
  } as unknown as Window;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    state.requests.push({ method: init?.method ?? "GET", url: String(input), body });
    const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
    if (String(input).includes("/config")) return json(200, { vapidPublicKey: VAPID, channels: [{ slug: "obras", name: "Obras", description: null }], maxChannelsPerSubscription: 3 });
    if (init?.method === "POST") return json(201, { subscription: { id: "1", createdAt: "", updatedAt: "", channels: ["obras"] } });
    if (init?.method === "PUT") return json(200, { channels: (body as { channels: string[] }).channels });
    return new Response(null, { status: 204 });
  };
  const logger = { log: (m: string) => state.logs.push(m), warn: (m: string) => state.logs.push(m), error: (m: string) => state.logs.push(m) };
  return { state, win, fetch, logger };
}

function client(page: ReturnType<typeof fakePage>, site: string | null = "abc123") {
  return createSinoClient({ sinoUrl: "https://sino.example/", site, window: page.win, fetch: page.fetch, logger: page.logger, timeoutMs: 1000 });
}

describe("createSinoClient", () => {
  it("is hidden on an insecure page, and logs that messaging was not initialised", async () => {
    const page = fakePage();
    (page.win as { isSecureContext: boolean }).isSecureContext = false;
    const snapshot = await client(page).start();
    expect(snapshot).toMatchObject({ status: "hidden", hiddenReason: "insecure" });
    expect(page.state.logs).toEqual([CONSOLE_MESSAGES.notInitialised]);
    expect(page.state.registered).toEqual([]);
  });

  it("starts off, registers the site's worker, and subscribes with the site key on Sino's URL", async () => {
    const page = fakePage();
    const sino = client(page);
    const seen: SinoSnapshot[] = [];
    sino.on("change", (s) => seen.push(s));
    expect((await sino.start()).status).toBe("off");
    expect(page.state.registered).toEqual([{ url: "/sino-sw.js", scope: "/" }]);

    const on = await sino.subscribe();
    expect(on).toMatchObject({ status: "on", busy: false, channels: ["obras"], token: { endpoint: "https://push.example/1" } });
    expect(sino.state).toBe("on");
    expect(page.state.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET https://sino.example/api/v1/config?site=abc123",
      "POST https://sino.example/api/v1/subscriptions",
    ]);
    expect(page.state.requests[1]?.body).toMatchObject({ endpoint: "https://push.example/1", site: "abc123" });
    // busy went true and then false around the action.
    expect(seen.map((s) => [s.status, s.busy])).toContainEqual(["off", true]);
    expect(seen.at(-1)).toBe(sino.getSnapshot());
  });

  it("sends no site key on Sino's own origin", async () => {
    const page = fakePage({ permission: "granted" });
    await client(page, null).subscribe();
    expect(page.state.requests[0]?.url).toBe("https://sino.example/api/v1/config");
    expect(page.state.requests[1]?.body).not.toHaveProperty("site");
  });

  it("is 'denied' on load while the browser blocks notifications, and a click explains again", async () => {
    const page = fakePage({ permission: "denied" });
    const sino = client(page);
    expect((await sino.start()).status).toBe("denied");
    const after = await sino.toggle();
    expect(after).toMatchObject({ status: "denied", notice: "blocked", token: null });
    expect(page.state.logs).toEqual([CONSOLE_MESSAGES.noToken]);
    sino.dismissNotice();
    expect(sino.getSnapshot().notice).toBeNull();
  });

  it("becomes denied when the visitor refuses the browser's dialog", async () => {
    const page = fakePage({ answer: "denied" });
    const sino = client(page);
    expect(await sino.subscribe()).toMatchObject({ status: "denied", notice: "blocked" });
  });

  it("turns off in the browser and on the server, with the auth secret as proof", async () => {
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" } });
    const sino = client(page);
    expect((await sino.start()).status).toBe("on");
    const off = await sino.unsubscribe();
    expect(off).toMatchObject({ status: "off", token: null, channels: null, notice: null });
    expect(page.state.subscription).toBeNull();
    expect(page.state.requests.at(-1)).toEqual({
      method: "DELETE",
      url: "https://sino.example/api/v1/subscriptions",
      body: { endpoint: "https://push.example/old", auth: "a" },
    });
  });

  it("loads the channels and stores a new choice", async () => {
    const page = fakePage({ permission: "granted" });
    const sino = client(page);
    await sino.subscribe();
    expect(await sino.loadChannels()).toEqual({ available: [{ slug: "obras", name: "Obras", description: null }], limit: 3, chosen: ["obras"] });
    expect(await sino.setChannels([])).toEqual([]);
    expect(sino.getSnapshot().channels).toEqual([]);
  });

  it("keeps notifying the other listeners when one throws, and stops notifying a removed one", async () => {
    const page = fakePage();
    const sino = client(page);
    const good = vi.fn();
    const removed = vi.fn();
    sino.on("change", () => {
      throw new Error("broken custom UI");
    });
    sino.on("change", good);
    const stop = sino.on("change", removed);
    stop();
    await sino.start();
    expect(good).toHaveBeenCalled();
    expect(removed).not.toHaveBeenCalled();
  });
});
