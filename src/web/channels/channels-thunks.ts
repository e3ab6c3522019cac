import { ApiRequestError } from "../../client/index.js";
import type { AppThunk } from "../app-store.js";
import { channelsFailed, channelsLoaded, channelsLoading, saveFailed, saveStarted, saveSucceeded } from "./channels-slice.js";

/** The active channels and the limit, from the public config. Loaded once; again after an error. */
export function loadChannels(): AppThunk {
  return async (dispatch, getState, { sino }) => {
    const { loading } = getState().channels;
    if (loading === "loading" || loading === "ready") return;
    dispatch(channelsLoading());
    try {
      const { available, limit } = await sino.loadChannels();
      dispatch(channelsLoaded({ channels: [...available], limit }));
    } catch (error) {
      console.error("Could not load the channels", error);
      dispatch(channelsFailed());
    }
  };
}

/**
 * Stores the choice on the server against this browser's subscription (the client proves
 * possession with its endpoint and auth secret). The server stores all of it or nothing; the
 * client's `channels` then holds what it stored.
 */
export function saveChannels(channels: string[]): AppThunk {
  return async (dispatch, getState, { sino }) => {
    const { token, channels: basis } = sino.getSnapshot();
    if (!token || getState().channels.saving) return;
    dispatch(saveStarted());
    try {
      await sino.setChannels(channels);
      dispatch(saveSucceeded());
    } catch (error) {
      // The server's pt-BR message; "" when there was no answer (the view says "no connection").
      dispatch(saveFailed({ message: error instanceof ApiRequestError && error.status !== 0 ? error.message : "", basis }));
    }
  };
}
