import { configureStore } from "@reduxjs/toolkit";
import type { Middleware, UnknownAction } from "@reduxjs/toolkit";
import { describe, expect, it } from "vitest";
import { CONSOLE_MESSAGES, createSinoClient } from "../../../src/client/index.js";
import type { SinoSnapshot } from "../../../src/client/index.js";
import { createSinoSlice, selectSinoToken, setToken, sinoReducer } from "./sino-slice.js";
import type { SinoToken } from "./sino-slice.js";
import { connectTokenToStore } from "./token-bridge.js";
import type { SnapshotSource } from "./token-bridge.js";

const token: SinoToken = { endpoint: "https://push.example/1", expirationTime: null, keys: { p256dh: "BPub", auth: "a1" } };
const rotated: SinoToken = { endpoint: "https://push.example/2", expirationTime: null, keys: { p256dh: "BPub2", auth: "a2" } };

const base: SinoSnapshot = { status: "checking", hiddenReason: null, busy: false, token: null, channels: null, notice: null };

/** A source whose snapshots the test sets, with the embed core's listener contract. */
function scriptedSource(initial: SinoSnapshot) {
  let snapshot = initial;
  const listeners = new Set<(s: SinoSnapshot) => void>();
  const source: SnapshotSource = {
    getSnapshot: () => snapshot,
    on(_event, listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
  const change = (patch: Partial<SinoSnapshot>) => {
    snapshot = { ...snapshot, ...patch };
    for (const listener of listeners) listener(snapshot);
  };
  return { source, change, listenerCount: () => listeners.size };
}

function recordingStore() {
  const actions: UnknownAction[] = [];
  const record: Middleware = () => (next) => (action) => {
    actions.push(action as UnknownAction);
    return next(action);
  };
  const store = configureStore({ reducer: { sino: sinoReducer }, middleware: (getDefault) => getDefault().concat(record) });
  return { store, actions };
}

describe("connectTokenToStore", () => {
  it("dispatches nothing while checking, then the settled token through setToken", () => {
    const { source, change } = scriptedSource(base);
    const { store, actions } = recordingStore();
    connectTokenToStore(source, store.dispatch, setToken);
    expect(actions).toEqual([]);

    change({ status: "on", token });
    expect(actions).toEqual([setToken(token)]);
    expect(selectSinoToken(store.getState())).toEqual(token);
  });

  it("clears a token left in the store when the browser settles without one", () => {
    const { source, change } = scriptedSource(base);
    const { store, actions } = recordingStore();
    store.dispatch(setToken(token)); // e.g. restored by redux-persist
    actions.length = 0;
    connectTokenToStore(source, store.dispatch, setToken);
    change({ status: "off" });
    expect(actions).toEqual([setToken(null)]);
    expect(selectSinoToken(store.getState())).toBeNull();
  });

  it("follows on → off → on with a new token, and ignores changes that keep the token", () => {
    const { source, change } = scriptedSource({ ...base, status: "off" });
    const { store, actions } = recordingStore();
    connectTokenToStore(source, store.dispatch, setToken);
    expect(actions).toEqual([setToken(null)]);

    change({ busy: true });
    change({ status: "on", token, busy: true });
    change({ busy: false });
    change({ channels: ["geral"] });
    change({ notice: "disable-failed" });
    change({ status: "off", token: null });
    change({ status: "on", token: rotated });
    expect(actions).toEqual([setToken(null), setToken(token), setToken(null), setToken(rotated)]);
    expect(selectSinoToken(store.getState())).toEqual(rotated);
  });

  it("uses the host's own action creator, e.g. a slice mounted under another name", () => {
    const push = createSinoSlice("push");
    const store = configureStore({ reducer: { push: push.reducer } });
    const { source } = scriptedSource({ ...base, status: "on", token });
    connectTokenToStore(source, store.dispatch, push.actions.setToken);
    expect(push.selectors.selectToken(store.getState())).toEqual(token);
  });

  it("stops listening when disconnected", () => {
    const { source, change, listenerCount } = scriptedSource(base);
    const { store, actions } = recordingStore();
    const disconnect = connectTokenToStore(source, store.dispatch, setToken);
    expect(listenerCount()).toBe(1);
    disconnect();
    expect(listenerCount()).toBe(0);
    change({ status: "on", token });
    expect(actions).toEqual([]);
  });

  it("with the real embed core on an insecure page: hidden, the seed's console message, and setToken(null)", async () => {
    const logged: unknown[][] = [];
    const logger = { log: (...a: unknown[]) => logged.push(a), warn: () => undefined, error: (...a: unknown[]) => logged.push(a) };
    // What the core reads of a page served over plain http from a public address.
    const insecurePage = {
      isSecureContext: false,
      navigator: { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36", maxTouchPoints: 0, platform: "Linux x86_64" },
    } as unknown as Window;
    const client = createSinoClient({ sinoUrl: "https://sino.example", window: insecurePage, logger });
    const { store, actions } = recordingStore();
    connectTokenToStore(client, store.dispatch, setToken);
    expect(actions).toEqual([]);

    const settled = await client.start();
    expect(settled.status).toBe("hidden");
    expect(settled.hiddenReason).toBe("insecure");
    expect(actions).toEqual([setToken(null)]);
    expect(logged).toEqual([[CONSOLE_MESSAGES.notInitialised]]);
  });
});
