import { useCallback, useEffect, useState } from "react";
import type { Notice } from "../../shared/api/notices.js";
import { API_ROUTES, NOTICE_STREAM_EVENT, NOTICE_WITHDRAWN_EVENT } from "../../shared/api/routes.js";
import type { ApiClient } from "../../client/index.js";
import { mergeNotices } from "./notice-list.js";

export interface NoticesView {
  status: "loading" | "error" | "ready";
  notices: Notice[];
  /** Ids that arrived through the stream while the page was open (highlighted). */
  live: ReadonlySet<string>;
  hasMore: boolean;
  loadingMore: boolean;
  moreFailed: boolean;
  loadMore: () => void;
  retry: () => void;
}

interface ListState {
  /** Which list this is (channel and attempt): an answer for another one is dropped. */
  key: string;
  status: NoticesView["status"];
  notices: Notice[];
  live: ReadonlySet<string>;
  cursor: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
}

const fresh = (key: string): ListState => ({ key, status: "loading", notices: [], live: new Set(), cursor: null, loadingMore: false, moreFailed: false });

/**
 * The notices of one channel (or all): the first page, "Carregar mais" with the server's cursor,
 * and what the SSE stream publishes meanwhile. After the stream drops and reconnects (EventSource
 * does that by itself), the first page is read again so nothing published in between is missed.
 */
export function useNotices(api: ApiClient, channel: string | null): NoticesView {
  const [attempt, setAttempt] = useState(0);
  const key = `${channel ?? ""}#${attempt}`;
  const [state, setState] = useState<ListState>(() => fresh(key));
  // Another channel (or a retry): start over, during render rather than in an effect.
  if (state.key !== key) setState(fresh(key));

  /** Applies a change only while the list it was made for is still the one shown. */
  const patch = useCallback((forKey: string, change: (s: ListState) => ListState) => setState((s) => (s.key === forKey ? change(s) : s)), []);

  useEffect(() => {
    let active = true;
    const readFirstPage = async (initial: boolean) => {
      try {
        const page = await api.listNotices({ channel: channel ?? undefined });
        if (!active) return;
        patch(key, (s) => ({ ...s, status: "ready", notices: mergeNotices(s.notices, page.notices), cursor: initial ? page.nextCursor : s.cursor }));
      } catch (error) {
        if (!active) return;
        console.error("Could not load the notices", error);
        if (initial) patch(key, (s) => ({ ...s, status: "error" }));
      }
    };
    void readFirstPage(true);

    if (typeof EventSource === "undefined") return () => void (active = false);
    const query = channel ? `?channel=${encodeURIComponent(channel)}` : "";
    const stream = new EventSource(API_ROUTES.noticesStream + query);
    let dropped = false;
    stream.addEventListener(NOTICE_STREAM_EVENT, (event: MessageEvent<string>) => {
      let notice: Notice;
      try {
        notice = JSON.parse(event.data) as Notice;
      } catch {
        return;
      }
      patch(key, (s) => ({ ...s, notices: mergeNotices(s.notices, [notice]), live: new Set([...s.live, notice.id]) }));
    });
    // An operator took a notice off Avisos: it leaves the open page too.
    stream.addEventListener(NOTICE_WITHDRAWN_EVENT, (event: MessageEvent<string>) => {
      let id: unknown;
      try {
        id = (JSON.parse(event.data) as { id?: unknown }).id;
      } catch {
        return;
      }
      if (typeof id !== "string") return;
      patch(key, (s) => (s.notices.some((n) => n.id === id) ? { ...s, notices: s.notices.filter((n) => n.id !== id) } : s));
    });
    stream.addEventListener("error", () => {
      dropped = true;
    });
    stream.addEventListener("open", () => {
      if (dropped) {
        dropped = false;
        void readFirstPage(false);
      }
    });
    return () => {
      active = false;
      stream.close();
    };
  }, [api, channel, key, patch]);

  const { cursor, loadingMore } = state;
  const loadMore = useCallback(() => {
    if (!cursor || loadingMore) return;
    patch(key, (s) => ({ ...s, loadingMore: true, moreFailed: false }));
    api.listNotices({ channel: channel ?? undefined, before: cursor }).then(
      (page) => patch(key, (s) => ({ ...s, notices: mergeNotices(s.notices, page.notices), cursor: page.nextCursor, loadingMore: false })),
      (error: unknown) => {
        console.error("Could not load more notices", error);
        patch(key, (s) => ({ ...s, moreFailed: true, loadingMore: false }));
      },
    );
  }, [api, channel, cursor, key, loadingMore, patch]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  const current = state.key === key ? state : fresh(key);
  return {
    status: current.status,
    notices: current.notices,
    live: current.live,
    hasMore: current.cursor !== null,
    loadingMore: current.loadingMore,
    moreFailed: current.moreFailed,
    loadMore,
    retry,
  };
}
