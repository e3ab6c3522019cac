import { describe, expect, it } from "vitest";
import { moveToSiteKey } from "./silent-move.js";

const SITE_KEY = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString("base64url");
const OTHER_KEY = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 9)]).toString("base64url");

/** A registration holding one subscription made with `key` (null: a subscription that does not say). */
function browser(key: string | null, options: { subscribeFails?: boolean } = {}) {
  const calls: string[] = [];
  const sub = (endpoint: string, made: string | null) => ({
    endpoint,
    options: { applicationServerKey: made === null ? null : new Uint8Array(Buffer.from(made, "base64url")).buffer },
    toJSON: () => ({ endpoint, keys: { p256dh: "p", auth: `auth-of-${endpoint}` } }),
    unsubscribe: async () => {
      calls.push(`unsubscribe ${endpoint}`);
      return true;
    },
  });
  const existing = sub("https://push.example/old", key) as unknown as PushSubscription;
  const registration = {
    pushManager: {
      subscribe: async (init: PushSubscriptionOptionsInit) => {
        calls.push(`subscribe ${Buffer.from(init.applicationServerKey as Uint8Array).toString("base64url")}`);
        if (options.subscribeFails) throw new Error("push service down");
        return sub("https://push.example/new", SITE_KEY);
      },
    },
  } as unknown as ServiceWorkerRegistration;
  return { calls, existing, registration };
}

const deps = (permission: NotificationPermission, config: () => Promise<{ vapidPublicKey: string }> = async () => ({ vapidPublicKey: SITE_KEY })) => ({
  api: { getConfig: config as never },
  notification: { permission },
  timeoutMs: 1000,
  logger: { log: () => undefined, warn: () => undefined },
});

describe("moveToSiteKey", () => {
  it("replaces a subscription made with another key by one under the site's key, with the old one as proof", async () => {
    const b = browser(OTHER_KEY);
    const moved = await moveToSiteKey(b.registration, b.existing, deps("granted"));
    expect(b.calls).toEqual(["unsubscribe https://push.example/old", `subscribe ${SITE_KEY}`]);
    expect(moved).toMatchObject({ previous: { endpoint: "https://push.example/old", auth: "auth-of-https://push.example/old" }, applicationServerKey: SITE_KEY });
    expect(moved !== null && moved !== "failed" && moved.subscription.endpoint).toBe("https://push.example/new");
  });

  it("does nothing without permission granted, with the same key, with an unknown key, or when the config is unreachable", async () => {
    for (const [key, permission, config] of [
      [OTHER_KEY, "default", undefined],
      [OTHER_KEY, "denied", undefined],
      [SITE_KEY, "granted", undefined],
      [null, "granted", undefined],
      [OTHER_KEY, "granted", () => Promise.reject(new Error("offline"))],
    ] as const) {
      const b = browser(key);
      expect(await moveToSiteKey(b.registration, b.existing, deps(permission, config))).toBeNull();
      expect(b.calls).toEqual([]);
    }
  });

  it("says failed when the new subscription cannot be made", async () => {
    const b = browser(OTHER_KEY, { subscribeFails: true });
    expect(await moveToSiteKey(b.registration, b.existing, deps("granted"))).toBe("failed");
  });
});
