import type { NoticeRecord, NoticesRepository } from "../../../store/notices-repository.js";

/** Starts calling `poll` regularly; returns what stops it. */
export type Ticker = (poll: () => void) => () => void;

export interface NoticeFeedDeps {
  readonly notices: Pick<NoticesRepository, "list">;
  /** How polls are spaced (default: every `pollMs`); tests drive it by hand. */
  readonly ticker: Ticker;
  readonly onPollError: (error: unknown) => void;
}

export type NoticeListener = (notices: readonly NoticeRecord[]) => void;

export interface NoticeFeed {
  /** Listens to notices published from now on (oldest first); resolves with what stops listening. */
  subscribe(listener: NoticeListener): Promise<() => void>;
  /** Stops polling for good (the server is closing). */
  close(): void;
}

/** Notices fetched per poll; a burst larger than this arrives over the next polls. */
const POLL_LIMIT = 50;

/**
 * One database poll for every open notice stream of this process, instead of one per client:
 * N listeners cost one query per interval, and none while nobody listens. Polling the database
 * rather than an in-process event: sends made by any process (another instance's API, the
 * scheduler in a worker) show up alike. Each listener filters by channel itself.
 */
export function createIntervalTicker(pollMs: number): Ticker {
  return (poll) => {
    const timer = setInterval(poll, pollMs);
    return () => clearInterval(timer);
  };
}

export function createNoticeFeed(deps: NoticeFeedDeps): NoticeFeed {
  const listeners = new Set<NoticeListener>();
  let lastId = 0;
  let stopTicker: (() => void) | undefined;
  let starting: Promise<void> | undefined;
  let polling = false;
  let closed = false;

  async function poll(): Promise<void> {
    if (polling || listeners.size === 0) return;
    polling = true;
    try {
      const fresh = await deps.notices.list({ limit: POLL_LIMIT, afterId: lastId });
      if (fresh.length === 0) return;
      lastId = Math.max(lastId, ...fresh.map((n) => n.id));
      const oldestFirst = [...fresh].reverse();
      for (const listener of listeners) listener(oldestFirst);
    } catch (error) {
      deps.onPollError(error);
    } finally {
      polling = false;
    }
  }

  /** The first listener after a quiet spell: only what is published from now on. */
  async function start(): Promise<void> {
    const newest = await deps.notices.list({ limit: 1 });
    lastId = newest[0]?.id ?? 0;
    if (!closed) stopTicker = deps.ticker(() => void poll());
  }

  function stop(): void {
    stopTicker?.();
    stopTicker = undefined;
  }

  return {
    async subscribe(listener) {
      if (stopTicker === undefined) {
        starting ??= start().finally(() => (starting = undefined));
        await starting;
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) stop();
      };
    },
    close() {
      closed = true;
      listeners.clear();
      stop();
    },
  };
}
