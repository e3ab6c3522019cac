import { describe, expect, it, vi } from "vitest";
import type { SinoClient, SinoSnapshot, SinoStatus } from "../sino-client.js";
import { PROMPT_STORAGE_KEY } from "./prompt-policy.js";
import { scheduleSoftPrompt } from "./soft-prompt-schedule.js";
import type { SoftPromptChoice } from "./soft-prompt-schedule.js";

function memoryStorage(): Pick<Storage, "getItem" | "setItem"> & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return { items, getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

/** What the scheduler reads of a page: storage, the permission, timers. */
function fakePage(permission: NotificationPermission = "default") {
  const local = memoryStorage();
  const win = {
    localStorage: local,
    sessionStorage: memoryStorage(),
    Notification: { permission },
    setTimeout: (run: () => void, ms: number) => setTimeout(run, ms),
    clearTimeout: (id: ReturnType<typeof setTimeout>) => clearTimeout(id),
  } as unknown as Window;
  return { win, local };
}

/** A client that has started as `status`; `subscribe()` settles as `afterSubscribe`. */
function fakeClient(status: SinoStatus, afterSubscribe: SinoStatus = "on") {
  const snapshot = (s: SinoStatus) => ({ status: s }) as SinoSnapshot;
  const subscribe = vi.fn(async () => snapshot(afterSubscribe));
  const client = { state: status, start: async () => snapshot(status), subscribe } as unknown as SinoClient;
  return { client, subscribe };
}

const config = { visits: 1, delaySeconds: 0, backoffDays: 7 };
const nextTimers = () => new Promise((resolve) => setTimeout(resolve, 5));

describe("scheduleSoftPrompt", () => {
  it("offers the prompt once the client has started off; 'Agora não' records the dismissal", async () => {
    const { win, local } = fakePage();
    const { client, subscribe } = fakeClient("off");
    const offers: SoftPromptChoice[] = [];
    scheduleSoftPrompt({ win, client, config, offer: (choice) => offers.push(choice) });
    await nextTimers();
    expect(offers).toHaveLength(1);
    offers[0]!.later();
    expect(JSON.parse(local.items.get(PROMPT_STORAGE_KEY) ?? "{}")).toMatchObject({ visits: 1, dismissedAt: expect.any(Number) });
    expect(subscribe).not.toHaveBeenCalled();
  });

  it("subscribes on accept, and backs off when the browser's dialog was dismissed without a decision", async () => {
    const { win, local } = fakePage();
    const { client, subscribe } = fakeClient("off", "off");
    const offers: SoftPromptChoice[] = [];
    scheduleSoftPrompt({ win, client, config, offer: (choice) => offers.push(choice) });
    await nextTimers();
    offers[0]!.accept();
    await nextTimers();
    expect(subscribe).toHaveBeenCalledTimes(1);
    expect(JSON.parse(local.items.get(PROMPT_STORAGE_KEY) ?? "{}").dismissedAt).toEqual(expect.any(Number));
  });

  it("offers nothing once cancelled (a bell unmounted before the delay ended), nor to a browser that already asked", async () => {
    const cancelled = fakePage();
    const offer = vi.fn();
    const stop = scheduleSoftPrompt({ win: cancelled.win, client: fakeClient("off").client, config, offer });
    stop();
    const asked = fakePage("denied");
    scheduleSoftPrompt({ win: asked.win, client: fakeClient("denied").client, config, offer });
    await nextTimers();
    expect(offer).not.toHaveBeenCalled();
    // The visit still counts.
    expect(JSON.parse(cancelled.local.items.get(PROMPT_STORAGE_KEY) ?? "{}").visits).toBe(1);
  });
});
