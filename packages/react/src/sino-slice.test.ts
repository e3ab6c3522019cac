import { configureStore } from "@reduxjs/toolkit";
import { describe, expect, it } from "vitest";
import { createSinoSlice, selectSinoToken, setToken, sinoReducer } from "./sino-slice.js";
import type { SinoToken } from "./sino-slice.js";
import type { PushSubscriptionJson } from "../../../src/client/index.js";

// The package's token type and the server's schema type are the same shape, both ways.
const sameShape: [SinoToken, PushSubscriptionJson] = [{} as PushSubscriptionJson, {} as SinoToken];
void sameShape;

const token: SinoToken = {
  endpoint: "https://push.example/abc",
  expirationTime: null,
  keys: { p256dh: "BPub", auth: "secret" },
};

describe("the sino slice", () => {
  it("starts with no token", () => {
    const store = configureStore({ reducer: { sino: sinoReducer } });
    expect(selectSinoToken(store.getState())).toBeNull();
  });

  it("keeps the token given to setToken in the host's store, and clears it with null", () => {
    const store = configureStore({ reducer: { sino: sinoReducer } });
    store.dispatch(setToken(token));
    expect(store.getState().sino.token).toEqual(token);
    expect(selectSinoToken(store.getState())).toEqual(token);
    store.dispatch(setToken(null));
    expect(selectSinoToken(store.getState())).toBeNull();
  });

  it("names the action setToken, under the slice's name", () => {
    expect(setToken.type).toBe("sino/setToken");
    expect(setToken(token)).toEqual({ type: "sino/setToken", payload: token });
  });

  it("mounts under another name when the host already has a 'sino' key", () => {
    const push = createSinoSlice("push");
    const other = createSinoSlice();
    const store = configureStore({ reducer: { push: push.reducer, sino: other.reducer } });
    store.dispatch(push.actions.setToken(token));
    expect(push.actions.setToken.type).toBe("push/setToken");
    expect(push.selectors.selectToken(store.getState())).toEqual(token);
    // The other slice did not react to an action of another name.
    expect(other.selectors.selectToken(store.getState())).toBeNull();
  });

  it("keeps a serialisable token (no Redux serialisability warning)", () => {
    const warnings: unknown[] = [];
    // The default middleware's serializability check logs with console.error on a non-plain value.
    const store = configureStore({ reducer: { sino: sinoReducer } });
    const original = console.error;
    console.error = (...args: unknown[]) => warnings.push(args);
    try {
      store.dispatch(setToken(token));
    } finally {
      console.error = original;
    }
    expect(warnings).toEqual([]);
  });
});
