import { useCallback, useEffect, useRef, useState } from "react";
import { NOTICE_STREAM_EVENT } from "../../shared/api/notices.js";
import type { Notice } from "../../shared/api/notices.js";
import { PUBLIC_ROUTES } from "../messaging/api-client.js";
import type { ApiClient } from "../messaging/api-client.js";
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

/**
 * The notices of one channel (or all): the first page, "Carregar mais" with the server's cursor,
 * and what the SSE stream publishes meanwhile. After the stream drops and reconnects (EventSource
 * does that by itself), the first page is read again so nothing published in between is missed.
 */
export function useNotices(api: ApiClient, channel: string | null): NoticesView {
  const [status, setStatus] = useState<NoticesView["status"]>("loading");
  const [notices, setNotices] = useState<Notice[]>([]);
  const [live, setLive] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setCursor] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);
  const [moreFailed, setMoreFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  // The channel a late answer belongs to: an answer for a filter no longer shown is dropped.
  const current = useRef(channel);
  current.current = channel;

  useEffect(() => {
    let active = true;
    setStatus("loading");
    setNotices([]);
    setLive(new Set());
    setCursor(null);
    setMoreFailed(false);
    const readFirstPage = async (initial: boolean) => {
      try {
        const page = await api.listNotices({ channel: channel ?? undefined });
        if (!active) return;
        setNotices((list) => mergeNotices(list, page.notices));
        if (initial) setCursor(page.nextCursor);
        setStatus("ready");
      } catch (error) {
        if (!active) return;
        console.error("Could not load the notices", error);
        if (initial) setStatus("error");
      }
    };
    void readFirstPage(true);

    if (typeof EventSource === "undefined") return () => void (active = false);
    const query = channel ? `?channel=${encodeURIComponent(channel)}` : "";
    const stream = new EventSource(PUBLIC_ROUTES.noticesStream + query);
    let dropped = false;
    stream.addEventListener(NOTICE_STREAM_EVENT, (event: MessageEvent<string>) => {
      let notice: Notice;
      try {
        notice = JSON.parse(event.data) as Notice;
      } catch {
        return;
      }
      setNotices((list) => mergeNotices(list, [notice]));
      setLive((ids) => new Set([...ids, notice.id]));
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
  }, [api, channel, attempt]);

  const loadMore = useCallback(() => {
    if (!cursor || loadingMore) return;
    const asked = channel;
    setLoadingMore(true);
    setMoreFailed(false);
    api.listNotices({ channel: asked ?? undefined, before: cursor }).then(
      (page) => {
        if (current.current !== asked) return;
        setNotices((list) => mergeNotices(list, page.notices));
        setCursor(page.nextCursor);
        setLoadingMore(false);
      },
      (error: unknown) => {
        if (current.current !== asked) return;
        console.error("Could not load more notices", error);
        setMoreFailed(true);
        setLoadingMore(false);
      },
    );
  }, [api, channel, cursor, loadingMore]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { status, notices, live, hasMore: cursor !== null, loadingMore, moreFailed, loadMore, retry };
}
