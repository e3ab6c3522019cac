import { configureStore } from "@reduxjs/toolkit";
import type { ThunkAction, UnknownAction } from "@reduxjs/toolkit";
import type { ApiClient } from "../../client/messaging/api-client.js";
import type { PushMessaging } from "../../client/messaging/push-messaging.js";
import { channelsSlice } from "./channels-slice.js";
import { pushSlice } from "./push-slice.js";

/** What thunks get besides dispatch/getState: the browser-facing services, injected at start-up. */
export interface StoreServices {
  messaging: PushMessaging;
  /** The public API, for what is not about the subscription itself (channels, notices). */
  api: ApiClient;
}

export function createAppStore(services: StoreServices) {
  return configureStore({
    reducer: { push: pushSlice.reducer, channels: channelsSlice.reducer },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: services } }),
  });
}

export type AppStore = ReturnType<typeof createAppStore>;
export type RootState = ReturnType<AppStore["getState"]>;
export type AppDispatch = AppStore["dispatch"];
export type AppThunk<R = Promise<void>> = ThunkAction<R, RootState, StoreServices, UnknownAction>;
