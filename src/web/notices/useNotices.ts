import { useCallback, useEffect, useState } from "react";
import type { Notice } from "../../shared/api/notices.js";
import { API_ROUTES, NOTICE_STREAM_EVENT, NOTICE_WITHDRAWN_EVENT } from "../../shared/api/routes.js";
import type { ApiClient } from "../../client/index.js";
import { mergeNotices, refreshFirstPage } from "./notice-list.js";

/** How often the list is read again while the live stream is refused (429 or 503). */
export const NOTICES_POLL_MS = 30_000;
/** Every this many polls, the stream is tried again: when it opens, polling stops. */
const STREAM_RETRY_POLLS = 4;

export interface NoticesView {
  status: "loading" | "error" | "ready";
  notices: Notice[];
  /** Ids that arrived through the stream while the page was open (highlighted). */
  live: ReadonlySet<string>;
  /** The server refused the live stream (too many on this address, or full): the list is polled. */
  polling: boolean;
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
  polling: boolean;
  cursor: string | null;
  loadingMore: boolean;
  moreFailed: boolean;
}

const fresh = (key: string): ListState => ({ key, status: "loading", notices: [], live: new Set(), polling: false, cursor: null, loadingMore: false, moreFailed: false });

/**
 * The notices of one channel (or all): the first page, "Carregar mais" with the server's cursor,
 * and what the SSE stream publishes meanwhile. After the stream drops and reconnects (EventSource
 * does that by itself), the first page is read again so nothing published in between is missed.
 * When the server refuses the stream (429 too_many_streams: many people behind one carrier
 * address; 503 streams_unavailable: the server is full), EventSource gives up for good: the page
 * then reads the first page every NOTICES_POLL_MS and tries the stream again now and then.
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
    let stream: EventSource | undefined;
    let poller: ReturnType<typeof setInterval> | undefined;
    let polls = 0;

    /** The first page again while polling: new notices are marked as they would be from the stream. */
    const poll = async () => {
      try {
        const page = await api.listNotices({ channel: channel ?? undefined });
        if (!active) return;
        patch(key, (s) => {
          const known = new Set(s.notices.map((n) => n.id));
          const arrived = page.notices.filter((n) => !known.has(n.id)).map((n) => n.id);
          return {
            ...s,
            status: "ready",
            notices: refreshFirstPage(s.notices, page.notices, page.nextCursor === null),
            live: arrived.length === 0 ? s.live : new Set([...s.live, ...arrived]),
          };
        });
      } catch (error) {
        // The next poll tries again; the list shown stays.
        if (active) console.error("Could not refresh the notices", error);
      }
    };

    const startPolling = () => {
      if (poller !== undefined) return;
      patch(key, (s) => ({ ...s, polling: true }));
      poller = setInterval(() => {
        void poll();
        if (++polls % STREAM_RETRY_POLLS === 0 && stream === undefined) openStream(true);
      }, NOTICES_POLL_MS);
    };

    const stopPolling = () => {
      if (poller === undefined) return;
      clearInterval(poller);
      poller = undefined;
      patch(key, (s) => ({ ...s, polling: false }));
    };

    function openStream(afterPolling: boolean): void {
      const current = new EventSource(API_ROUTES.noticesStream + query);
      stream = current;
      let dropped = afterPolling;
      current.addEventListener(NOTICE_STREAM_EVENT, (event: MessageEvent<string>) => {
        let notice: Notice;
        try {
          notice = JSON.parse(event.data) as Notice;
        } catch {
          return;
        }
        patch(key, (s) => ({ ...s, notices: mergeNotices(s.notices, [notice]), live: new Set([...s.live, notice.id]) }));
      });
      // An operator took a notice off Avisos: it leaves the open page too.
      current.addEventListener(NOTICE_WITHDRAWN_EVENT, (event: MessageEvent<string>) => {
        let id: unknown;
        try {
          id = (JSON.parse(event.data) as { id?: unknown }).id;
        } catch {
          return;
        }
        if (typeof id !== "string") return;
        patch(key, (s) => (s.notices.some((n) => n.id === id) ? { ...s, notices: s.notices.filter((n) => n.id !== id) } : s));
      });
      current.addEventListener("error", () => {
        // A dropped connection: EventSource reconnects by itself (CONNECTING). A refusal (an
        // answer other than 200 text/event-stream): it is CLOSED and will not try again.
        if (current.readyState === EventSource.CLOSED) {
          current.close();
          if (stream === current) stream = undefined;
          if (active) startPolling();
        } else dropped = true;
      });
      current.addEventListener("open", () => {
        stopPolling();
        if (dropped) {
          dropped = false;
          void readFirstPage(false);
        }
      });
    }

    openStream(false);
    return () => {
      active = false;
      stream?.close();
      clearInterval(poller);
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
    polling: current.polling,
    hasMore: current.cursor !== null,
    loadingMore: current.loadingMore,
    moreFailed: current.moreFailed,
    loadMore,
    retry,
  };
}
