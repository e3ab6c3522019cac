/**
 * A stand-in for the browser's push service inside the page: Chromium's real
 * `subscribe()` never settles offline, so `PushManager.prototype.subscribe/getSubscription/
 * permissionState` are replaced by an init script. The subscription is a real `PushSubscription`
 * object (built on its prototype) with real P-256 keys made here, kept in localStorage so it
 * survives a reload. The service worker underneath stays real.
 */
import { createECDH, randomBytes, randomUUID } from "node:crypto";
import type { BrowserContext } from "playwright-core";
import { scalarBytes } from "../../support/fake-push/vapid-token.js";

export interface SubscriptionKeys {
  p256dh: string;
  auth: string;
  /** The private half, for tests that decrypt what a sender produced. */
  privateKey: string;
}

export function makeSubscriptionKeys(): SubscriptionKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
    privateKey: scalarBytes(ecdh).toString("base64url"),
  };
}

export interface PushStubOptions {
  endpoint: string;
  keys: SubscriptionKeys;
  /**
   * "ok": subscribe succeeds when permission is granted; "throw": it rejects (push service error);
   * "hang": it never settles (Chromium offline, or a push service that does not answer).
   */
  mode?: "ok" | "throw" | "hang";
}

/** An endpoint on the (allow-listed in tests) loopback push service, unique per test. */
export function testEndpoint(port = 4443): string {
  return `https://127.0.0.1:${port}/push/${randomUUID()}`;
}

/** Keys in localStorage where the stub keeps its state; tests read them with `page.evaluate`. */
export const STUB_STORAGE = {
  subscription: "sino-test:subscription",
  subscribeCalls: "sino-test:subscribe-calls",
  /** When set, the next subscribe() hands out this endpoint (a push service rotating it). */
  nextEndpoint: "sino-test:next-endpoint",
} as const;

interface StubConfig {
  endpoint: string;
  p256dh: string;
  auth: string;
  mode: "ok" | "throw" | "hang";
  storage: typeof STUB_STORAGE;
}

export async function installPushStub(context: BrowserContext, options: PushStubOptions): Promise<void> {
  const config: StubConfig = {
    endpoint: options.endpoint,
    p256dh: options.keys.p256dh,
    auth: options.keys.auth,
    mode: options.mode ?? "ok",
    storage: STUB_STORAGE,
  };
  await context.addInitScript(pushStubScript, config);
}

/** Runs inside every page of the context (serialised by playwright: self-contained, no imports). */
function pushStubScript(config: StubConfig): void {
  if (typeof PushManager === "undefined" || typeof localStorage === "undefined") return;
  interface Saved {
    endpoint: string;
    p256dh: string;
    auth: string;
    key: string;
  }
  const toB64 = (bytes: Uint8Array): string =>
    btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const fromB64 = (text: string): ArrayBuffer => {
    const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
  };
  const keyBytes = (key: BufferSource | string | null | undefined): Uint8Array => {
    if (typeof key === "string") return new Uint8Array(fromB64(key));
    if (!key) throw new DOMException("applicationServerKey is required", "NotSupportedError");
    if (key instanceof ArrayBuffer) return new Uint8Array(key);
    return new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
  };
  const make = (saved: Saved): PushSubscription =>
    Object.create(PushSubscription.prototype, {
      endpoint: { value: saved.endpoint, enumerable: true },
      expirationTime: { value: null, enumerable: true },
      options: { value: { userVisibleOnly: true, applicationServerKey: fromB64(saved.key) } },
      getKey: { value: (name: string) => fromB64(name === "p256dh" ? saved.p256dh : saved.auth) },
      toJSON: {
        value: () => ({ endpoint: saved.endpoint, expirationTime: null, keys: { p256dh: saved.p256dh, auth: saved.auth } }),
      },
      unsubscribe: {
        value: async () => {
          localStorage.removeItem(config.storage.subscription);
          return true;
        },
      },
    }) as PushSubscription;

  PushManager.prototype.getSubscription = async function getSubscription() {
    const raw = localStorage.getItem(config.storage.subscription);
    return raw ? make(JSON.parse(raw) as Saved) : null;
  };
  PushManager.prototype.permissionState = async function permissionState() {
    return Notification.permission === "default" ? "prompt" : Notification.permission;
  };
  PushManager.prototype.subscribe = async function subscribe(options?: PushSubscriptionOptionsInit) {
    const calls = Number(localStorage.getItem(config.storage.subscribeCalls) ?? "0") + 1;
    localStorage.setItem(config.storage.subscribeCalls, String(calls));
    if (config.mode === "throw") throw new DOMException("Registration failed - push service error", "AbortError");
    if (config.mode === "hang") return new Promise<PushSubscription>(() => undefined);
    if (Notification.permission !== "granted") {
      throw new DOMException("Registration failed - permission denied", "NotAllowedError");
    }
    const saved: Saved = {
      endpoint: localStorage.getItem(config.storage.nextEndpoint) ?? config.endpoint,
      p256dh: config.p256dh,
      auth: config.auth,
      key: toB64(keyBytes(options?.applicationServerKey)),
    };
    localStorage.setItem(config.storage.subscription, JSON.stringify(saved));
    return make(saved);
  };
}
