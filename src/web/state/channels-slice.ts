import { createSlice } from "@reduxjs/toolkit";
import type { PayloadAction } from "@reduxjs/toolkit";
import type { PublicChannel } from "../../shared/api/channels.js";

export interface ChannelsState {
  /** The active channels from GET /config; null until loaded. */
  available: PublicChannel[] | null;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION as the server announced it; null when it did not say. */
  limit: number | null;
  loading: "idle" | "loading" | "ready" | "error";
  /** The channels (slugs) the server holds for this browser's subscription; null when unknown or off. */
  subscribed: string[] | null;
  saving: boolean;
  /** The last save's failure: the server's pt-BR message, "" when it could not be reached; null after success. */
  saveError: string | null;
  /** Counts successful saves, so a view can say "Preferências salvas" after each one. */
  saves: number;
}

export const initialChannelsState: ChannelsState = {
  available: null,
  limit: null,
  loading: "idle",
  subscribed: null,
  saving: false,
  saveError: null,
  saves: 0,
};

export const channelsSlice = createSlice({
  name: "channels",
  initialState: initialChannelsState,
  reducers: {
    channelsLoading(state) {
      state.loading = "loading";
    },
    channelsLoaded(state, action: PayloadAction<{ channels: PublicChannel[]; limit: number | null }>) {
      state.available = action.payload.channels;
      state.limit = action.payload.limit;
      state.loading = "ready";
    },
    channelsFailed(state) {
      state.loading = "error";
    },
    setSubscribedChannels(state, action: PayloadAction<string[] | null>) {
      state.subscribed = action.payload;
      state.saveError = null;
    },
    saveStarted(state) {
      state.saving = true;
      state.saveError = null;
    },
    saveSucceeded(state, action: PayloadAction<string[]>) {
      state.saving = false;
      state.subscribed = action.payload;
      state.saves += 1;
    },
    saveFailed(state, action: PayloadAction<string>) {
      state.saving = false;
      state.saveError = action.payload;
    },
  },
});

export const { channelsLoading, channelsLoaded, channelsFailed, setSubscribedChannels, saveStarted, saveSucceeded, saveFailed } =
  channelsSlice.actions;
