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
  /** The page's localStorage (shared between pages made with the same map: the same origin). */
  storage: Map<string, string>;
  /** An answer that replaces the default one for a request, e.g. a refusal. */
  respond?: (method: string, url: string, body: unknown) => Response | undefined;
  /** What the page posted to the active service worker. */
  toWorker: unknown[];
  /** The page's `message` listeners on `navigator.serviceWorker` (the worker posts through these). */
  fromWorker: Set<(event: MessageEvent) => void>;
}

/**
 * Just enough of a page for the client: a secure context, a service worker container whose
 * registration has a push manager, `Notification`, and a fetch that plays the Sino API.
 */
function fakePage(initial: Partial<FakeBrowser> = {}) {
  const state: FakeBrowser = {
    permission: "default",
    answer: "granted",
    subscription: null,
    registered: [],
    requests: [],
    logs: [],
    storage: new Map(),
    toWorker: [],
    fromWorker: new Set(),
    ...initial,
  };
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
  const registration = { pushManager, active: { postMessage: (message: unknown) => void state.toWorker.push(message) } };
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
    localStorage: {
      getItem: (key: string) => state.storage.get(key) ?? null,
      setItem: (key: string, value: string) => void state.storage.set(key, value),
      removeItem: (key: string) => void state.storage.delete(key),
    },
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
        addEventListener: (_type: string, listener: (event: MessageEvent) => void) => void state.fromWorker.add(listener),
        removeEventListener: (_type: string, listener: (event: MessageEvent) => void) => void state.fromWorker.delete(listener),
        startMessages: () => undefined,
      },
    },
  } as unknown as Window;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.body ? (JSON.parse(String(init.body)) as unknown) : undefined;
    state.requests.push({ method: init?.method ?? "GET", url: String(input), body });
    const answer = state.respond?.(init?.method ?? "GET", String(input), body);
    if (answer) return answer;
    if (String(input).includes("/config")) return json(200, { vapidPublicKey: VAPID, channels: [{ slug: "obras", name: "Obras", description: null }], maxChannelsPerSubscription: 3 });
    if (init?.method === "POST") return json(201, { subscription: { id: "1", createdAt: "", updatedAt: "", channels: ["obras"] } });
    if (init?.method === "PUT") return json(200, { channels: (body as { channels: string[] }).channels });
    return new Response(null, { status: 204 });
  };
  const logger = {
    log: (m: string) => state.logs.push(m),
    warn: (m: string) => state.logs.push(m),
    error: (...parts: unknown[]) => state.logs.push(parts.join(" ")),
  };
  return { state, win, fetch, logger };
}

const json = (status: number, value: unknown) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });

function client(page: ReturnType<typeof fakePage>, site: string | null = "abc123", sinoUrl = "https://sino.example/") {
  return createSinoClient({ sinoUrl, site, window: page.win, fetch: page.fetch, logger: page.logger, timeoutMs: 1000 });
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

  it("gives up after 10 s when the push service never answers: off, the seed's console message, a pt-BR notice", async () => {
    vi.useFakeTimers();
    try {
      const page = fakePage({ permission: "granted" });
      // Chromium offline: subscribe() waits for its push service forever, without an error.
      const registration = await (page.win.navigator.serviceWorker as unknown as { ready: Promise<{ pushManager: object }> }).ready;
      (registration.pushManager as { subscribe: () => Promise<never> }).subscribe = () => new Promise<never>(() => undefined);
      const sino = createSinoClient({ sinoUrl: "https://sino.example/", site: "abc123", window: page.win, fetch: page.fetch, logger: page.logger });
      await sino.start();
      const pending = sino.subscribe();
      await vi.advanceTimersByTimeAsync(9_999);
      expect(sino.getSnapshot()).toMatchObject({ status: "off", busy: true });
      await vi.advanceTimersByTimeAsync(1);
      expect(await pending).toMatchObject({ status: "off", busy: false, token: null, notice: "enable-timeout" });
      expect(page.state.logs).toHaveLength(1);
      expect(page.state.logs[0]).toContain(CONSOLE_MESSAGES.tokenError);
      // Nothing was registered on the server.
      expect(page.state.requests.filter((r) => r.method === "POST")).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("tells the site's developer in pt-BR, naming Painel → Sites and the origin, when the origin is not registered", async () => {
    const page = fakePage({ permission: "granted" });
    (page.win as unknown as { location: { origin: string } }).location = { origin: "https://www.esquecido.com.br" };
    const message = "Este site não está autorizado a usar o Sino. Um administrador precisa cadastrá-lo em Painel → Sites.";
    page.state.respond = (_method, url) => (url.includes("/config") ? json(403, { error: { code: "origin_not_allowed", message } }) : undefined);
    const sino = client(page);
    expect(await sino.subscribe()).toMatchObject({ status: "off", notice: "enable-failed" });
    expect(page.state.logs).toEqual([`Sino: a origem https://www.esquecido.com.br não está cadastrada neste Sino (https://sino.example). ${message} origin_not_allowed`]);
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
    expect(await sino.loadChannels()).toEqual({ available: [{ slug: "obras", name: "Obras", description: null }], limit: 3, chosen: ["obras"], organisation: null });
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

describe("identify and forget", () => {
  const KEY = "sino:person:https://sino.example#abc123";
  const ANA = { id: "ana-4821", signature: "ab12" };
  const requestsTo = (page: ReturnType<typeof fakePage>, path: string) =>
    page.state.requests.filter((r) => new URL(r.url).pathname === path).map((r) => ({ method: r.method, body: r.body }));

  it("remembers an identification made while off, and the first subscribe carries it", async () => {
    const page = fakePage({ permission: "granted" });
    const sino = client(page);
    await sino.identify(ANA.id, ANA.signature);
    expect(JSON.parse(page.state.storage.get(KEY) ?? "null")).toEqual(ANA);
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([]);

    await sino.subscribe();
    expect(requestsTo(page, "/api/v1/subscriptions")).toEqual([{ method: "POST", body: expect.objectContaining({ site: "abc123", user: ANA }) }]);
    // Already applied by the registration: identifying again with the same id asks nothing.
    await sino.identify(ANA.id, ANA.signature);
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([]);
  });

  it("tells the server at once when on, and re-applies the identity on the next visit's re-registration", async () => {
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" } });
    const sino = client(page);
    await sino.start();
    await sino.identify(ANA.id, ANA.signature);
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([{ method: "PUT", body: { endpoint: "https://push.example/old", auth: "a", user: ANA } }]);

    const nextVisit = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" }, storage: page.state.storage });
    await client(nextVisit).start();
    expect(requestsTo(nextVisit, "/api/v1/subscriptions")).toEqual([{ method: "POST", body: expect.objectContaining({ user: ANA }) }]);
  });

  it("keeps the identity of each Sino server and site key apart", async () => {
    const page = fakePage();
    await client(page).identify(ANA.id, ANA.signature);
    const storage = page.state.storage;
    for (const other of [client(fakePage({ permission: "granted", storage }), "outro"), client(fakePage({ permission: "granted", storage }), "abc123", "https://outro-sino.example")]) {
      await other.subscribe();
    }
    expect([...storage.keys()]).toEqual([KEY]);
  });

  it("sends no user when nobody was identified", async () => {
    const page = fakePage({ permission: "granted" });
    await client(page).subscribe();
    expect(requestsTo(page, "/api/v1/subscriptions")[0]?.body).not.toHaveProperty("user");
  });

  it("rejects an invalid user id before any request, with the API's code, and logs it", async () => {
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" } });
    const sino = client(page);
    for (const bad of ["", " ana", "a\nb", "x".repeat(129)]) {
      await expect(sino.identify(bad, "ab12")).rejects.toMatchObject({ name: "ApiRequestError", code: "user_id_invalid" });
    }
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([]);
    expect(page.state.storage.size).toBe(0);
    expect(page.state.logs.filter((l) => l.includes("user_id_invalid"))).toHaveLength(4);
  });

  it("rejects a refused signature with the server's code, logs it, and remembers nothing", async () => {
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" } });
    page.state.respond = (method, url) =>
      method === "PUT" && url.endsWith("/subscriptions/user") ? json(403, { error: { code: "user_signature_invalid", message: "Assinatura inválida" } }) : undefined;
    const sino = client(page);
    await sino.start();
    await expect(sino.identify(ANA.id, "bad")).rejects.toMatchObject({ status: 403, code: "user_signature_invalid" });
    expect(page.state.storage.size).toBe(0);
    expect(page.state.logs.some((l) => l.includes("identify failed") && l.includes("user_signature_invalid"))).toBe(true);
  });

  it("registers anonymously, and drops the identity, when the server refuses the remembered one", async () => {
    const storage = new Map([[KEY, JSON.stringify({ id: "ana-4821", signature: "stale" })]]);
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" }, storage });
    page.state.respond = (method, url, body) =>
      method === "POST" && new URL(url).pathname === "/api/v1/subscriptions" && (body as { user?: unknown }).user
        ? json(403, { error: { code: "user_signature_invalid", message: "Assinatura inválida" } })
        : undefined;
    const snapshot = await client(page).start();
    expect(snapshot.status).toBe("on");
    expect(page.state.subscription).not.toBeNull();
    expect(requestsTo(page, "/api/v1/subscriptions").map((r) => (r.body as { user?: unknown }).user)).toEqual([{ id: "ana-4821", signature: "stale" }, undefined]);
    expect(storage.size).toBe(0);
    expect(page.state.logs.some((l) => l.includes("user_signature_invalid"))).toBe(true);
  });

  it("forget() makes the subscription anonymous on the server and in this browser", async () => {
    const page = fakePage({ permission: "granted" });
    const sino = client(page);
    await sino.identify(ANA.id, ANA.signature);
    await sino.subscribe();
    await sino.forget();
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([{ method: "DELETE", body: { endpoint: "https://push.example/1", auth: "a" } }]);
    expect(page.state.storage.size).toBe(0);
    expect(sino.getSnapshot()).toMatchObject({ status: "on", channels: ["obras"] });

    // Turned off and on again: anonymous now.
    await sino.unsubscribe();
    await sino.subscribe();
    expect(requestsTo(page, "/api/v1/subscriptions").at(-1)?.body).not.toHaveProperty("user");
  });

  it("forget() while off only clears this browser's memory", async () => {
    const page = fakePage();
    const sino = client(page);
    await sino.identify("ana-4821");
    expect(JSON.parse(page.state.storage.get(KEY) ?? "null")).toEqual({ id: "ana-4821" });
    await sino.forget();
    expect(page.state.storage.size).toBe(0);
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([]);
  });
});

describe("tags", () => {
  const KEY = "sino:person:https://sino.example#abc123";
  const requestsTo = (page: ReturnType<typeof fakePage>, path: string) =>
    page.state.requests.filter((r) => new URL(r.url).pathname === path).map((r) => ({ method: r.method, body: r.body }));
  const tagsAnswer = (page: ReturnType<typeof fakePage>) => {
    page.state.respond = (method, url, body) =>
      method === "PUT" && url.endsWith("/subscriptions/tags") ? json(200, { tags: Object.fromEntries(Object.entries((body as { tags: object }).tags).filter(([, v]) => v !== null)) }) : undefined;
  };

  it("sets and removes visitor tags on this browser's subscription, with proof", async () => {
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" } });
    tagsAnswer(page);
    const sino = client(page);
    expect(await sino.tag("bairro", "Centro")).toEqual({ bairro: "Centro" });
    expect(await sino.tag("vip")).toEqual({ vip: true });
    await sino.untag("bairro");
    expect(requestsTo(page, "/api/v1/subscriptions/tags")).toEqual([
      { method: "PUT", body: { endpoint: "https://push.example/old", auth: "a", tags: { bairro: "Centro" } } },
      { method: "PUT", body: { endpoint: "https://push.example/old", auth: "a", tags: { vip: true } } },
      { method: "PUT", body: { endpoint: "https://push.example/old", auth: "a", tags: { bairro: null } } },
    ]);
  });

  it("rejects a tag while notifications are off, and bad keys or values before any request", async () => {
    const page = fakePage();
    const sino = client(page);
    await expect(sino.tag("bairro", "Centro")).rejects.toMatchObject({ name: "ApiRequestError", code: "not_subscribed", message: expect.stringContaining("notificações estão desligadas") });
    await expect(sino.tag("Bairro", "Centro")).rejects.toMatchObject({ code: "tag_key_invalid" });
    await expect(sino.tag("bairro", " Centro")).rejects.toMatchObject({ code: "tag_value_invalid" });
    await expect(sino.tag("idade", Number.NaN)).rejects.toMatchObject({ code: "tag_value_invalid" });
    expect(requestsTo(page, "/api/v1/subscriptions/tags")).toEqual([]);
    expect(page.state.logs.some((l) => l.includes("tag failed") && l.includes("not_subscribed"))).toBe(true);
  });

  it("hands back the server's refusal when the site turned visitor tags off", async () => {
    const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/old" } });
    page.state.respond = (method, url) => (method === "PUT" && url.endsWith("/subscriptions/tags") ? json(403, { error: { code: "visitor_tags_disabled", message: "Este site não aceita" } }) : undefined);
    await expect(client(page).tag("tema", "escuro")).rejects.toMatchObject({ status: 403, code: "visitor_tags_disabled" });
  });

  it("carries signed trusted tags with the identity, remembered for the next registrations", async () => {
    const page = fakePage({ permission: "granted" });
    const sino = client(page);
    const ANA = { id: "ana-4821", signature: "ab12", tags: { plano: "premium", idade: 30 } };
    await sino.identify(ANA.id, ANA.signature, ANA.tags);
    expect(JSON.parse(page.state.storage.get(KEY) ?? "null")).toEqual(ANA);
    await sino.subscribe();
    expect(requestsTo(page, "/api/v1/subscriptions")[0]?.body).toMatchObject({ user: ANA });
    // The same claim again asks nothing; other tags are sent at once.
    await sino.identify(ANA.id, ANA.signature, { idade: 30, plano: "premium" });
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([]);
    await sino.identify(ANA.id, "cd34", { plano: "básico" });
    expect(requestsTo(page, "/api/v1/subscriptions/user")).toEqual([{ method: "PUT", body: { endpoint: "https://push.example/1", auth: "a", user: { id: ANA.id, signature: "cd34", tags: { plano: "básico" } } } }]);
    await expect(sino.identify(ANA.id, "cd34", { Plano: "x" })).rejects.toMatchObject({ code: "tag_key_invalid" });
  });

  it("sends the browser's time zone with each registration", async () => {
    const page = fakePage({ permission: "granted" });
    await client(page).subscribe();
    expect(requestsTo(page, "/api/v1/subscriptions")[0]?.body).toMatchObject({ timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone });
  });

  describe("Declarative Web Push support (issue 19)", () => {
    it("says declarative: false with every registration where the page has no window.pushManager", async () => {
      const page = fakePage({ permission: "granted", subscription: { endpoint: "https://push.example/1" } });
      await client(page).start();
      expect(page.state.requests.find((r) => r.method === "POST")?.body).toMatchObject({ declarative: false });
    });

    it("says declarative: true on the first registration and again on each visit where window.pushManager exists", async () => {
      const page = fakePage({ permission: "granted" });
      (page.win as unknown as { pushManager: object }).pushManager = {};
      await client(page).subscribe();
      // The next visit re-registers the subscription it finds, with the flag again.
      await client(page).start();
      const registrations = page.state.requests.filter((r) => r.method === "POST");
      expect(registrations).toHaveLength(2);
      for (const r of registrations) expect(r.body).toMatchObject({ declarative: true });
    });
  });

  describe("notification clicks handed to the page (issue 19)", () => {
    const fromWorker = (page: ReturnType<typeof fakePage>, data: unknown) => {
      for (const listener of page.state.fromWorker) listener({ data } as MessageEvent);
    };
    const click = { type: "sino:click", notificationId: "7", action: "2", url: "https://site.example/agenda", data: { tela: "agenda" } };

    it("tells the worker it listens once started, and hands each click to the click listeners", async () => {
      const page = fakePage();
      const sino = client(page);
      const clicks: unknown[] = [];
      sino.on("click", (c) => clicks.push(c));
      await sino.start();
      await vi.waitFor(() => expect(page.state.toWorker).toEqual([{ type: "sino:page-ready" }]));
      fromWorker(page, click);
      fromWorker(page, { type: "sino:shown", tag: "x" });
      fromWorker(page, { type: "sino:click", action: "apagar", data: undefined });
      expect(clicks).toEqual([
        { notificationId: "7", action: "2", url: "https://site.example/agenda", data: { tela: "agenda" } },
        { notificationId: null, action: "open", url: null, data: null },
      ]);
    });

    it("keeps a click that came before any click listener for the first one, and stops after unsubscribing", async () => {
      const page = fakePage();
      const sino = client(page);
      await sino.start();
      fromWorker(page, click);
      const clicks: unknown[] = [];
      const stop = sino.on("click", (c) => clicks.push(c));
      expect(clicks).toHaveLength(1);
      stop();
      fromWorker(page, click);
      expect(clicks).toHaveLength(1);
    });

    it("does not listen where messaging is unavailable", async () => {
      const page = fakePage();
      (page.win as { isSecureContext: boolean }).isSecureContext = false;
      await client(page).start();
      expect(page.state.fromWorker.size).toBe(0);
      expect(page.state.toWorker).toEqual([]);
    });
  });
});
