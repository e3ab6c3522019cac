import { describe, expect, it, vi } from "vitest";
import { connectTokenToStore } from "@sino/react";
import type { SinoToken } from "@sino/react";
import { ApiRequestError } from "../client/index.js";
import type { SinoChangeListener, SinoClient, SinoSnapshot } from "../client/index.js";
import { createAppStore, pushTokenSlice } from "./app-store.js";
import { loadChannels, saveChannels } from "./channels/channels-thunks.js";

const token: SinoToken = { endpoint: "https://push.example/1", expirationTime: null, keys: { p256dh: "BPub", auth: "a1" } };
const base: SinoSnapshot = { status: "checking", hiddenReason: null, busy: false, token: null, channels: null, notice: null };

/** The part of the bell client the store's thunks and the token bridge use, with snapshots the test sets. */
function scriptedClient(overrides: Partial<Pick<SinoClient, "loadChannels" | "setChannels">> = {}) {
  let snapshot = base;
  const listeners = new Set<SinoChangeListener>();
  const client = {
    getSnapshot: () => snapshot,
    on: (_event: "change", listener: SinoChangeListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    loadChannels: vi.fn(async () => ({ available: [{ slug: "obras", name: "Obras", description: null }], limit: 3, chosen: [] })),
    setChannels: vi.fn(async (slugs: readonly string[]) => slugs),
    ...overrides,
  };
  const change = (patch: Partial<SinoSnapshot>) => {
    snapshot = { ...snapshot, ...patch };
    for (const listener of listeners) listener(snapshot);
  };
  return { client, sino: client as unknown as SinoClient, change };
}

describe("the public app's store", () => {
  it("holds the device token, set through an action named setToken (push/setToken) by the package's bridge", () => {
    const { sino, change } = scriptedClient();
    const store = createAppStore({ sino });
    const dispatched: string[] = [];
    connectTokenToStore(sino, (action: ReturnType<typeof pushTokenSlice.actions.setToken>) => {
      dispatched.push(action.type);
      return store.dispatch(action);
    }, pushTokenSlice.actions.setToken);

    change({ status: "on", token, channels: [] });
    expect(store.getState().push.token).toEqual(token);
    change({ status: "off", token: null, channels: null });
    expect(store.getState().push.token).toBeNull();
    expect(dispatched).toEqual(["push/setToken", "push/setToken"]);
  });

  it("loads the channels once, through the client", async () => {
    const { client, sino } = scriptedClient();
    const store = createAppStore({ sino });
    await Promise.all([store.dispatch(loadChannels()), store.dispatch(loadChannels())]);
    await store.dispatch(loadChannels());
    expect(client.loadChannels).toHaveBeenCalledTimes(1);
    expect(store.getState().channels).toMatchObject({ loading: "ready", limit: 3, available: [{ slug: "obras" }] });
  });

  it("keeps a refused save with the choice it was made against, and saves nothing while off", async () => {
    const refuse = vi.fn(async () => {
      throw new ApiRequestError(400, "channel_limit_exceeded", "Escolha no máximo 3 canais.");
    });
    const { sino, change } = scriptedClient({ setChannels: refuse });
    const store = createAppStore({ sino });
    await store.dispatch(saveChannels(["obras"]));
    expect(refuse).not.toHaveBeenCalled();

    const answered = ["saude"];
    change({ status: "on", token, channels: answered });
    await store.dispatch(saveChannels(["obras"]));
    expect(store.getState().channels.saving).toBe(false);
    expect(store.getState().channels.saveFailure?.message).toBe("Escolha no máximo 3 canais.");
    // The same array as the client's: a later registration's answer is another, and the failure is then stale.
    expect(store.getState().channels.saveFailure?.basis).toBe(answered);
  });
});
