import { configureStore } from "@reduxjs/toolkit";
import type { ThunkAction, UnknownAction } from "@reduxjs/toolkit";
import { createSinoSlice } from "@sino/react";
import type { SinoClient } from "../client/index.js";
import { channelsSlice } from "./channels/channels-slice.js";

/**
 * The device token in the app's shared state, set through an action named `setToken` (seed-spec
 * §3, §7): @sino/react's slice, mounted at `push` (so the action stays `push/setToken`), fed by the
 * package's token bridge (`<SinoProvider dispatch={store.dispatch}>`). The bell's state itself
 * lives in the client, as on every site that embeds it.
 */
export const pushTokenSlice = createSinoSlice("push");

/** What thunks get besides dispatch/getState: the bell client, made once in main.tsx. */
export interface StoreServices {
  sino: SinoClient;
}

export function createAppStore(services: StoreServices) {
  return configureStore({
    reducer: { push: pushTokenSlice.reducer, channels: channelsSlice.reducer },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: services } }),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore["getState"]>;
export type AppDispatch = AppStore["dispatch"];
export type AppThunk<R = Promise<void>> = ThunkAction<R, RootState, StoreServices, UnknownAction>;
