import { createSlice } from "@reduxjs/toolkit";
import type { PayloadAction } from "@reduxjs/toolkit";

/**
 * The device token of seed-spec §3: the browser's push subscription as `toJSON()` gives it, plain
 * JSON so it fits a Redux store. Written out rather than taken from the server's zod schema so the
 * package's types do not depend on zod; a test holds the two shapes equal.
 */
export interface SinoToken {
  endpoint: string;
  expirationTime?: number | null | undefined;
  keys: { p256dh: string; auth: string };
}

/** What the slice keeps in the host's store: the token, null while the bell is off. */
export interface SinoState {
  token: SinoToken | null;
}

export const initialSinoState: SinoState = { token: null };

/**
 * A Redux Toolkit slice holding the token in the host app's own store, set through an action
 * named `setToken` (seed-spec §3, §7). `name` is where the reducer is mounted and the prefix of
 * its action types (`<name>/setToken`); one app may mount two under different names.
 */
export function createSinoSlice<Name extends string = "sino">(name: Name = "sino" as Name) {
  return createSlice({
    name,
    initialState: initialSinoState,
    reducers: {
      setToken(state, action: PayloadAction<SinoToken | null>) {
        state.token = action.payload;
      },
    },
    selectors: {
      selectToken: (state) => state.token,
    },
  });
}

/** The default slice, mounted as `sino` (`configureStore({ reducer: { sino: sinoReducer } })`). */
export const sinoSlice = createSinoSlice();
export const sinoReducer = sinoSlice.reducer;
export const { setToken } = sinoSlice.actions;
/** The token from the root state of a store with `sinoReducer` mounted at `sino`. */
export const { selectToken: selectSinoToken } = sinoSlice.selectors;
