import type { NoticeRecord, NoticesRepository, WithdrawnNotice } from "../../../store/notices-repository.js";

/** Starts calling `poll` regularly; returns what stops it. */
export type Ticker = (poll: () => void) => () => void;

export interface NoticeFeedDeps {
  readonly notices: Pick<NoticesRepository, "list" | "withdrawnSince">;
  /** How polls are spaced (default: every `pollMs`); tests drive it by hand. */
  readonly ticker: Ticker;
  readonly onPollError: (error: unknown) => void;
  /** Epoch ms (default Date.now): where the first listener's watch for withdrawn notices starts. */
  readonly clock?: () => number;
}

/** New notices (oldest first), and notices an operator took off Avisos since the last poll. */
export type NoticeListener = (notices: readonly NoticeRecord[], withdrawn: readonly WithdrawnNotice[]) => void;

export interface NoticeFeed {
  /** Listens to notices published from now on (oldest first); resolves with what stops listening. */
  subscribe(listener: NoticeListener): Promise<() => void>;
  /** Stops polling for good (the server is closing). */
  close(): void;
}

/** Notices fetched per poll; a burst larger than this arrives over the next polls. */
const POLL_LIMIT = 50;
/**
 * Withdrawals are stamped by whichever process's clock made them: the watch starts this far
 * back so a little skew loses none. Telling a page to drop a notice it does not show is harmless.
 */
const WITHDRAWN_SKEW_MS = 5_000;

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
  const clock = deps.clock ?? Date.now;
  let lastId = 0;
  /** The withdrawals already told: from `withdrawnSince` on, and those stamped exactly then. */
  let withdrawnSince = 0;
  let withdrawnAtEdge = new Set<number>();
  let stopTicker: (() => void) | undefined;
  let starting: Promise<void> | undefined;
  let polling = false;
  let closed = false;

  async function poll(): Promise<void> {
    if (polling || listeners.size === 0) return;
    polling = true;
    try {
      const fresh = await deps.notices.list({ limit: POLL_LIMIT, afterId: lastId });
      const withdrawn = (await deps.notices.withdrawnSince(withdrawnSince, POLL_LIMIT)).filter(
        (w) => !(w.changedAt === withdrawnSince && withdrawnAtEdge.has(w.id)),
      );
      if (fresh.length === 0 && withdrawn.length === 0) return;
      if (fresh.length > 0) lastId = Math.max(lastId, ...fresh.map((n) => n.id));
      if (withdrawn.length > 0) {
        const edge = withdrawn[withdrawn.length - 1]!.changedAt;
        if (edge !== withdrawnSince) withdrawnAtEdge = new Set();
        withdrawnSince = edge;
        for (const w of withdrawn) if (w.changedAt === edge) withdrawnAtEdge.add(w.id);
      }
      // A notice published and withdrawn between two polls is not announced at all.
      const gone = new Set(withdrawn.map((w) => w.id));
      const oldestFirst = [...fresh].reverse().filter((n) => !gone.has(n.id));
      for (const listener of listeners) listener(oldestFirst, withdrawn);
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
    withdrawnSince = clock() - WITHDRAWN_SKEW_MS;
    withdrawnAtEdge = new Set();
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
