import { createSlice } from "@reduxjs/toolkit";
import type { PayloadAction } from "@reduxjs/toolkit";
import type { PushSubscriptionJson } from "../../shared/api/subscriptions.js";
import type { UnavailableReason } from "../messaging/availability.js";

/** "checking" until the environment and any existing subscription have been looked at. */
export type BellAvailability = "checking" | "available" | UnavailableReason;

/** What the bell tells the visitor after a click that did not simply work. */
export type PushNotice = "blocked" | "enable-failed" | "disable-failed" | "disable-server-failed";

export interface PushState {
  /**
   * The device token: the browser's push subscription as `toJSON()` gives it
   * ({ endpoint, keys }). Set only through `setToken`; non-null means the bell is on.
   */
  token: PushSubscriptionJson | null;
  availability: BellAvailability;
  /** A click is being handled: the bell is disabled so a second click cannot race the first. */
  busy: boolean;
  notice: PushNotice | null;
}

export const initialPushState: PushState = { token: null, availability: "checking", busy: false, notice: null };

export const pushSlice = createSlice({
  name: "push",
  initialState: initialPushState,
  reducers: {
    setToken(state, action: PayloadAction<PushSubscriptionJson | null>) {
      state.token = action.payload;
    },
    setAvailability(state, action: PayloadAction<BellAvailability>) {
      state.availability = action.payload;
    },
    setBusy(state, action: PayloadAction<boolean>) {
      state.busy = action.payload;
    },
    showNotice(state, action: PayloadAction<PushNotice>) {
      state.notice = action.payload;
    },
    dismissNotice(state) {
      state.notice = null;
    },
  },
});

export const { setToken, setAvailability, setBusy, showNotice, dismissNotice } = pushSlice.actions;
