import { ApiRequestError } from "../../client/messaging/api-client.js";
import type { AppThunk } from "./store.js";
import { channelsFailed, channelsLoaded, channelsLoading, saveFailed, saveStarted, saveSucceeded } from "./channels-slice.js";

/** The active channels and the limit, from the public config. Loaded once; again after an error. */
export function loadChannels(): AppThunk {
  return async (dispatch, getState, { api }) => {
    const { loading } = getState().channels;
    if (loading === "loading" || loading === "ready") return;
    dispatch(channelsLoading());
    try {
      const config = await api.getConfig();
      dispatch(channelsLoaded({ channels: config.channels ?? [], limit: config.maxChannelsPerSubscription ?? null }));
    } catch (error) {
      console.error("Could not load the channels", error);
      dispatch(channelsFailed());
    }
  };
}

/**
 * Stores the choice on the server against this browser's subscription, with its endpoint and auth
 * secret as proof of possession. The server stores all of it or nothing.
 */
export function saveChannels(channels: string[]): AppThunk {
  return async (dispatch, getState, { api }) => {
    const { push, channels: state } = getState();
    if (!push.token || state.saving) return;
    dispatch(saveStarted());
    try {
      const stored = await api.updateChannels({ endpoint: push.token.endpoint, auth: push.token.keys.auth }, channels);
      dispatch(saveSucceeded(stored));
    } catch (error) {
      // The server's pt-BR message; "" when there was no answer (the view says "no connection").
      dispatch(saveFailed(error instanceof ApiRequestError && error.status !== 0 ? error.message : ""));
    }
  };
}
