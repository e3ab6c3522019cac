import { createSlice } from "@reduxjs/toolkit";
import type { PayloadAction } from "@reduxjs/toolkit";
import type { PublicChannel } from "../../shared/api/channels.js";

/** A save the server did not store, and the choice it was made against. */
export interface SaveFailure {
  /** The server's pt-BR message; "" when it could not be reached. */
  message: string;
  /**
   * The bell client's `channels` when the save began (the same array). A registration's answer
   * (turned on, off, on again) makes a new one, and the failure no longer applies to it.
   */
  basis: readonly string[] | null;
}

/** The channels a visitor may choose, and the saving of a choice (what the server holds is the bell client's `channels`). */
export interface ChannelsState {
  /** The active channels from GET /config; null until loaded. */
  available: PublicChannel[] | null;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION as the server announced it; null when it did not say. */
  limit: number | null;
  loading: "idle" | "loading" | "ready" | "error";
  saving: boolean;
  /** The last save's failure; null after a success. */
  saveFailure: SaveFailure | null;
  /** Counts successful saves, so a view can say "Preferências salvas" after each one. */
  saves: number;
}

export const initialChannelsState: ChannelsState = {
  available: null,
  limit: null,
  loading: "idle",
  saving: false,
  saveFailure: null,
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
    saveStarted(state) {
      state.saving = true;
      state.saveFailure = null;
    },
    saveSucceeded(state) {
      state.saving = false;
      state.saves += 1;
    },
    saveFailed(state, action: PayloadAction<SaveFailure>) {
      state.saving = false;
      // Not drafted: the basis is compared by identity with the client's array.
      state.saveFailure = { message: action.payload.message, basis: action.payload.basis as string[] | null };
    },
  },
});

export const { channelsLoading, channelsLoaded, channelsFailed, saveStarted, saveSucceeded, saveFailed } = channelsSlice.actions;
