import type { AppThunk } from "./store.js";
import { setSubscribedChannels } from "./channels-slice.js";
import { setAvailability, setBusy, setToken, showNotice, dismissNotice } from "./push-slice.js";

/** Page load: is the bell shown, and is it already on? */
export function startPush(): AppThunk {
  return async (dispatch, _getState, { messaging }) => {
    const { availability, token, channels } = await messaging.start();
    dispatch(setToken(token));
    dispatch(setSubscribedChannels(channels));
    dispatch(setAvailability(availability.available ? "available" : availability.reason));
  };
}

/** A click on the bell: on when off, off when on. Ignored while a previous click is in progress. */
export function togglePush(): AppThunk {
  return async (dispatch, getState, { messaging }) => {
    const { busy, token, availability } = getState().push;
    if (busy || availability !== "available") return;
    dispatch(setBusy(true));
    dispatch(dismissNotice());
    try {
      if (token) {
        try {
          const result = await messaging.disable(token);
          dispatch(setToken(null));
          dispatch(setSubscribedChannels(null));
          if (result.kind === "server-error") dispatch(showNotice("disable-server-failed"));
        } catch (error) {
          // The browser kept its subscription: it is still on, and honest about it.
          console.error("Could not unsubscribe", error);
          dispatch(showNotice("disable-failed"));
        }
        return;
      }
      const result = await messaging.enable();
      switch (result.kind) {
        case "on":
          dispatch(setToken(result.token));
          dispatch(setSubscribedChannels(result.channels));
          break;
        case "no-token":
          // Denied or dismissed: tell how to allow it (Chrome blocks the prompt after a few dismissals).
          dispatch(showNotice("blocked"));
          break;
        case "server-error":
          console.error("Could not register the subscription with the server", result.error.code);
          dispatch(showNotice("enable-failed"));
          break;
        case "token-error":
          // Logged only: the visitor cannot act on a failed token fetch, and the bell stays off.
          break;
      }
    } finally {
      dispatch(setBusy(false));
    }
  };
}
