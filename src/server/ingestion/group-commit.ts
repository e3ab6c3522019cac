/**
 * Group commit for the public write paths (service-worker reports, registrations, unsubscribes).
 *
 * A commit costs far more than a row: SQLite syncs its WAL, PostgreSQL waits for its WAL flush and
 * a round trip per statement. So requests are not written one transaction each: a request waits in
 * a queue, and the writer takes everything waiting (up to `maxBatch`) into one `write` call, which
 * is one transaction. While that transaction runs, the next requests gather behind it, so the batch
 * grows with the load and no timer is needed: one request on an idle server is written at once.
 *
 * Promises:
 * - a request's promise settles only after its transaction committed (or failed): an answer never
 *   gets ahead of the commit, so nothing acknowledged is lost on a crash;
 * - a batch that fails is written again one item per transaction, so one bad row fails only its
 *   own request, with its own error, and the others are written as if alone;
 * - the queue is bounded: past `capacity` waiting items `submit` refuses at once (`QueueFullError`,
 *   a 503 with Retry-After for the client) instead of holding an unbounded backlog in memory;
 * - `close()` refuses new items and resolves once everything already queued has committed.
 */

export interface GroupCommitOptions<I, O> {
  /**
   * Writes `items` in ONE transaction and answers one outcome per item, in order. Throwing rolls
   * the whole transaction back; the items are then written again one per call.
   */
  readonly write: (items: readonly I[]) => Promise<readonly O[]>;
  /** Most items one transaction takes. */
  readonly maxBatch: number;
  /** Most items waiting or being written; past it `submit` refuses. */
  readonly capacity: number;
  /** Transactions written at once (SQLite has one writer: 1; PostgreSQL may take a few). */
  readonly concurrency?: number;
  /** Told after every committed batch, with its size (tests, and metrics once wired). */
  readonly onBatch?: (size: number) => void;
}

export interface GroupCommitStats {
  /** Transactions that committed a batch (a batch retried one by one counts each of its own). */
  readonly batches: number;
  /** Items those transactions wrote. */
  readonly items: number;
  /** Items queued or being written right now. */
  readonly pending: number;
}

export interface GroupCommit<I, O> {
  /** Resolves with the item's outcome once its transaction committed; rejects with its own error. */
  submit(item: I): Promise<O>;
  stats(): GroupCommitStats;
  /** Refuses new items; resolves when every item already taken has been written. */
  close(): Promise<void>;
}

/** The queue is full: the client should retry in a moment (503 + Retry-After). */
export class QueueFullError extends Error {
  constructor() {
    super("write queue full");
    this.name = "QueueFullError";
  }
}

/** The process is stopping: nothing new is taken (the client retries against another process). */
export class WriterClosedError extends Error {
  constructor() {
    super("writer closed");
    this.name = "WriterClosedError";
  }
}

interface Waiting<I, O> {
  readonly item: I;
  resolve(outcome: O): void;
  reject(error: unknown): void;
}

export function createGroupCommit<I, O>(options: GroupCommitOptions<I, O>): GroupCommit<I, O> {
  const concurrency = options.concurrency ?? 1;
  const queue: Array<Waiting<I, O>> = [];
  let running = 0;
  let pending = 0;
  let batches = 0;
  let items = 0;
  let closed = false;
  let scheduled = false;
  const idle: Array<() => void> = [];

  function submit(item: I): Promise<O> {
    if (closed) return Promise.reject(new WriterClosedError());
    if (pending >= options.capacity) return Promise.reject(new QueueFullError());
    pending++;
    return new Promise<O>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      schedule();
    });
  }

  // Requests that arrive in the same turn of the event loop go together: the first batch starts on
  // the next turn, not inside the first request's handler.
  function schedule(): void {
    if (scheduled || running >= concurrency || queue.length === 0) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      while (running < concurrency && queue.length > 0) void flush(queue.splice(0, options.maxBatch));
    });
  }

  async function flush(batch: Array<Waiting<I, O>>): Promise<void> {
    running++;
    try {
      await writeBatch(batch);
    } finally {
      running--;
      pending -= batch.length;
      if (queue.length > 0) schedule();
      else if (running === 0) for (const wake of idle.splice(0)) wake();
    }
  }

  async function writeBatch(batch: Array<Waiting<I, O>>): Promise<void> {
    let outcomes: readonly O[];
    try {
      outcomes = await options.write(batch.map((w) => w.item));
      if (outcomes.length !== batch.length) throw new Error(`write answered ${outcomes.length} outcomes for ${batch.length} items`);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // Rolled back: each item alone, so only the one(s) at fault fail, each with its own error.
      for (const waiting of batch) await writeBatch([waiting]);
      return;
    }
    batches++;
    items += batch.length;
    options.onBatch?.(batch.length);
    batch.forEach((waiting, i) => waiting.resolve(outcomes[i]!));
  }

  function close(): Promise<void> {
    closed = true;
    if (pending === 0) return Promise.resolve();
    return new Promise<void>((resolve) => idle.push(resolve));
  }

  return { submit, stats: () => ({ batches, items, pending }), close };
}
