import { useCallback, useEffect, useState } from "react";
import { useSino } from "@sino/react";
import type { PublicChannel } from "../../shared/api/channels.js";
import { useAppDispatch, useAppSelector } from "../hooks/useAppStore.js";
import { loadChannels, saveChannels } from "./channels-thunks.js";

export interface ChannelChoice {
  available: PublicChannel[] | null;
  loading: "idle" | "loading" | "ready" | "error";
  retry: () => void;
  /** What the visitor has ticked, saved or not. */
  draft: string[];
  toggle: (slug: string) => void;
  /** The draft differs from what the server holds. */
  dirty: boolean;
  limit: number | null;
  overLimit: boolean;
  save: () => void;
  saving: boolean;
  saveError: string | null;
  saves: number;
}

/**
 * The visitor's channel choice as the bell's menu and the preferences page edit it: a draft
 * initialised from what the server holds (the bell client's `channels`: the registration's
 * answer, then each save's), saved on demand.
 */
export function useChannelChoice(): ChannelChoice {
  const dispatch = useAppDispatch();
  const subscribed = useSino().channels;
  const { available, loading, limit, saving, saveFailure, saves } = useAppSelector((state) => state.channels);
  // A failure made against an earlier answer of the server (the bell was turned off and on since) is stale.
  const saveError = saveFailure !== null && saveFailure.basis === subscribed ? saveFailure.message : null;
  const [draft, setDraft] = useState<string[]>(subscribed ? [...subscribed] : []);
  const [basis, setBasis] = useState<readonly string[] | null>(subscribed);

  useEffect(() => {
    void dispatch(loadChannels());
  }, [dispatch]);

  // The server's choice changed (registration answered, a save stored it): start over from it.
  if (basis !== subscribed) {
    setBasis(subscribed);
    setDraft(subscribed ? [...subscribed] : []);
  }

  const toggle = useCallback((slug: string) => {
    setDraft((current) => (current.includes(slug) ? current.filter((s) => s !== slug) : [...current, slug]));
  }, []);

  // Only the active channels count: an archived one the server still keeps is not shown or sent back.
  const activeSlugs = new Set((available ?? []).map((channel) => channel.slug));
  const visibleDraft = draft.filter((slug) => activeSlugs.has(slug));
  const visibleSaved = (subscribed ?? []).filter((slug) => activeSlugs.has(slug));
  const dirty = visibleDraft.length !== visibleSaved.length || visibleDraft.some((slug) => !visibleSaved.includes(slug));
  const overLimit = limit !== null && visibleDraft.length > limit;

  return {
    available,
    loading,
    retry: () => void dispatch(loadChannels()),
    draft: visibleDraft,
    toggle,
    dirty,
    limit,
    overLimit,
    save: () => void dispatch(saveChannels(visibleDraft)),
    saving,
    saveError,
    saves,
  };
}
