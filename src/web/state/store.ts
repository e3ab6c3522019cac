import { configureStore } from "@reduxjs/toolkit";
import type { ThunkAction, UnknownAction } from "@reduxjs/toolkit";
import type { PushMessaging } from "../messaging/push-messaging.js";
import { pushSlice } from "./push-slice.js";

/** What thunks get besides dispatch/getState: the browser-facing services, injected at start-up. */
export interface StoreServices {
  messaging: PushMessaging;
}

export function createAppStore(services: StoreServices) {
  return configureStore({
    reducer: { push: pushSlice.reducer },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: services } }),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore["getState"]>;
export type AppDispatch = AppStore["dispatch"];
export type AppThunk<R = Promise<void>> = ThunkAction<R, RootState, StoreServices, UnknownAction>;
