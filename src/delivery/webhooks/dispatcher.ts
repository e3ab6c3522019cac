import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import type { ClaimedWebhookMessage, WebhookAttemptOutcome, WebhooksRepository } from "../../store/webhooks-repository.js";
import type { DeliveryLogger } from "../worker.js";
import { nextRetryDelay, parseRetryAfter } from "./retry-schedule.js";
import { signWebhook } from "./sign.js";
import { redactWebhookUrl } from "./url-policy.js";
import type { WebhookClient, WebhookPostResult } from "./webhook-client.js";
import type { LoopObservers } from "../loop-observers.js";

const DAY_MS = 86_400_000;

export interface WebhookDispatcherOptions {
  /** Messages this process holds at once, all webhooks together. */
  readonly maxInFlight: number;
  /** Requests in flight to one webhook: a slow receiver gets no more than this. */
  readonly maxInFlightPerWebhook: number;
  /** Requests in flight to one webhook while `pushesBusy()` says a notification is being delivered here. */
  readonly maxInFlightPerWebhookWhilePushing?: number;
  /**
   * While `pushesBusy()`, messages younger than this (ms) are not claimed: the events a notification
   * produces wait for its pushes to end (or this long, so a process that pushes without pause
   * still delivers them). Default 10 s.
   */
  readonly maxDeferWhilePushingMs?: number;
  /** How often an idle dispatcher looks for due messages. */
  readonly pollMs: number;
  /** How long a claimed message stays with a dispatcher that stopped (killed) before another takes it. */
  readonly leaseMs: number;
  /** Delivered messages are deleted after this many days; 0 keeps them. */
  readonly retentionDays: number;
  /** How often old delivered messages are pruned (default hourly). */
  readonly pruneIntervalMs?: number;
}

export interface WebhookDispatcherDeps {
  readonly repository: WebhooksRepository;
  readonly client: WebhookClient;
  readonly clock: () => number;
  readonly logger: DeliveryLogger;
  readonly options: WebhookDispatcherOptions;
  /** Identifies this process in lease rows. */
  readonly id?: string;
  readonly random?: () => number;
  /**
   * Whether this process is delivering pushes right now. The dispatcher then keeps to
   * `maxInFlightPerWebhookWhilePushing`: webhooks share the CPU and the database's writer with the
   * push lanes, and the pushes are what people wait for; the events queued meanwhile go out at
   * full speed once the notification is done.
   */
  readonly pushesBusy?: () => boolean;
  /** Beats `webhooks` at each claim; database outages are logged once. */
  readonly observers?: LoopObservers;
}

export interface WebhookDispatcher {
  readonly id: string;
  start(): void;
  /** Looks for due messages now (a message was queued or resent). */
  wake(): void;
  /** Graceful: finishes the requests in flight, gives back what was claimed and not sent. */
  stop(options?: { graceful: boolean }): Promise<void>;
  /** Deletes delivered messages past the retention; returns how many. */
  prune(): Promise<number>;
}

/** One message claimed by this process, queued behind its webhook's in-flight cap or being sent. */
interface Held {
  readonly message: ClaimedWebhookMessage;
  started: boolean;
}

/**
 * Sends the durable outbox (`webhook_messages`): claims due messages under a lease, signs and
 * POSTs each, and records the attempt. Nothing here touches push delivery: its own HTTP client,
 * its own loop, and database writes one small row at a time, so a slow or failing receiver never
 * delays a push. A process that dies leaves leases that run out; another (or the same, restarted)
 * claims the messages again — receivers deduplicate on `webhook-id`, which every attempt repeats.
 */
export function createWebhookDispatcher(deps: WebhookDispatcherDeps): WebhookDispatcher {
  const { repository, client, clock, logger, options } = deps;
  const id = deps.id ?? `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
  const random = deps.random ?? Math.random;
  const held = new Map<number, Held>();
  /** Per webhook: messages held (queued or in flight) and in flight. */
  const perWebhook = new Map<number, { held: number; inFlight: number }>();
  const inFlight = new Set<Promise<void>>();
  const abort = new AbortController();
  let running = false;
  let pumping: Promise<void> | undefined;
  let again = false;
  let pollTimer: NodeJS.Timeout | undefined;
  const pendingSettles: Array<{ id: number; outcome: WebhookAttemptOutcome; resolve: (ok: boolean) => void; reject: (error: unknown) => void }> = [];
  let flushing: Promise<void> | undefined;
  let pruneTimer: NodeJS.Timeout | undefined;

  const lease = () => ({ owner: id, now: clock(), leaseMs: options.leaseMs });
  const countsOf = (webhookId: number) => {
    let c = perWebhook.get(webhookId);
    if (c === undefined) perWebhook.set(webhookId, (c = { held: 0, inFlight: 0 }));
    return c;
  };

  function kick(): void {
    if (!running) return;
    if (pumping !== undefined) {
      again = true;
      return;
    }
    deps.observers?.heartbeat?.beat("webhooks");
    pumping = pump()
      .then(
        () => deps.observers?.outage?.succeeded(),
        (error: unknown) => {
          if (deps.observers?.outage?.failed(error, "webhooks") !== true) {
            logger.warn({ err: error instanceof Error ? error.message : String(error) }, "webhook dispatcher could not claim; retrying later");
          }
        },
      )
      .finally(() => {
        pumping = undefined;
        if (again) {
          again = false;
          kick();
        } else schedulePoll();
      });
  }

  function schedulePoll(): void {
    if (!running) return;
    clearTimeout(pollTimer);
    pollTimer = setTimeout(kick, options.pollMs);
    pollTimer.unref();
  }

  async function pump(): Promise<void> {
    for (;;) {
      const free = options.maxInFlight - held.size;
      if (!running || free <= 0) return;
      const saturated = [...perWebhook].filter(([, c]) => c.held >= options.maxInFlightPerWebhook).map(([w]) => w);
      // Pushes first: while this process delivers a notification, the events it queues (one per push for
      // `recipient.*`) would take the CPU and SQLite's writer from the very pushes they report.
      const deferFrom = deps.pushesBusy?.() === true ? clock() - (options.maxDeferWhilePushingMs ?? 10_000) : undefined;
      const claimed = await repository.claimDue(lease(), { limit: free, excludeWebhooks: saturated, ...(deferFrom === undefined ? {} : { createdBefore: deferFrom }) });
      for (const message of claimed) {
        held.set(message.id, { message, started: false });
        countsOf(message.webhook.id).held++;
      }
      startReady();
      if (claimed.length < free) return;
    }
  }

  /** Starts queued messages of every webhook up to its in-flight cap. */
  function startReady(): void {
    const cap = deps.pushesBusy?.() === true ? (options.maxInFlightPerWebhookWhilePushing ?? 1) : options.maxInFlightPerWebhook;
    for (const entry of held.values()) {
      if (entry.started || !running) continue;
      const counts = countsOf(entry.message.webhook.id);
      if (counts.inFlight >= cap) continue;
      entry.started = true;
      counts.inFlight++;
      const work = deliver(entry.message).finally(() => {
        inFlight.delete(work);
        held.delete(entry.message.id);
        counts.inFlight--;
        if (--counts.held === 0) perWebhook.delete(entry.message.webhook.id);
        startReady();
        // Refill in bulk once half the slots are free, rather than one claim per finished request.
        if (held.size <= options.maxInFlight / 2) kick();
      });
      inFlight.add(work);
    }
  }

  async function deliver(message: ClaimedWebhookMessage): Promise<void> {
    const attempt = message.attempts + 1;
    const signature = signWebhook(message.webhook.secret, message.messageId, clock() / 1000, message.payload);
    const result = await client.post(message.webhook.url, message.payload, signature, abort.signal);
    if (abort.signal.aborted) {
      // Stopped mid-request (not graceful): the attempt is not counted; the message goes back as is.
      await repository.release(id, [message.id]).catch(() => undefined);
      return;
    }
    const outcome = outcomeOf(result, attempt);
    const details = { webhookId: message.webhook.id, messageId: message.messageId, attempt, url: redactWebhookUrl(message.webhook.url) };
    try {
      const settled = await settle(message.id, outcome);
      if (!settled) logger.warn(details, "webhook message lease lost before its attempt was recorded");
      if (result.kind === "answered" && result.status === 410) {
        // Standard Webhooks: 410 Gone means the receiver is gone for good; stop sending to it.
        await repository.disable(message.webhook.id, clock());
        logger.warn(details, "webhook disabled: the receiver answered 410 Gone");
      } else if (outcome.kind === "failed") {
        logger.warn({ ...details, status: outcome.status, error: outcome.error }, "webhook message failed for good");
      } else if (outcome.kind === "retry") {
        logger.info({ ...details, status: outcome.status, error: outcome.error, retryAt: new Date(outcome.notBefore).toISOString() }, "webhook delivery failed; retrying later");
      }
    } catch (error) {
      // The lease runs out and the message is sent again: at least once, never lost.
      logger.warn({ ...details, err: error instanceof Error ? error.message : String(error) }, "webhook attempt not recorded");
    }
  }

  /**
   * Attempts that end while a write is under way wait and go together in the next one: one
   * transaction for many messages, not a commit each (SQLite's single writer is shared with the
   * push checkpoints).
   */
  function settle(id: number, outcome: WebhookAttemptOutcome): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      pendingSettles.push({ id, outcome, resolve, reject });
      if (flushing === undefined) flushing = flush();
    });
  }

  async function flush(): Promise<void> {
    while (pendingSettles.length > 0) {
      const batch = pendingSettles.splice(0, 500);
      try {
        const lost = new Set(await repository.settleMany(lease(), batch));
        for (const s of batch) s.resolve(!lost.has(s.id));
      } catch (error) {
        for (const s of batch) s.reject(error);
      }
    }
    flushing = undefined;
  }

  function outcomeOf(result: WebhookPostResult, attempt: number): WebhookAttemptOutcome {
    const now = clock();
    if (result.kind === "answered") {
      if (result.status >= 200 && result.status < 300) return { kind: "delivered", status: result.status };
      const error = `HTTP ${result.status}`;
      if (result.status === 410) return { kind: "failed", status: result.status, error };
      const delay = nextRetryDelay(attempt, parseRetryAfter(result.retryAfter, now), random);
      return delay === undefined ? { kind: "failed", status: result.status, error } : { kind: "retry", status: result.status, error, notBefore: now + delay };
    }
    // A host that resolves to a private address will not stop doing so within the retries.
    if (result.blocked) return { kind: "failed", status: null, error: result.error };
    const delay = nextRetryDelay(attempt, undefined, random);
    return delay === undefined ? { kind: "failed", status: null, error: result.error } : { kind: "retry", status: null, error: result.error, notBefore: now + delay };
  }

  async function prune(): Promise<number> {
    if (options.retentionDays <= 0) return 0;
    const before = clock() - options.retentionDays * DAY_MS;
    let total = 0;
    for (;;) {
      const n = await repository.pruneDelivered(before, 1000);
      total += n;
      if (n < 1000) break;
    }
    if (total > 0) logger.info({ removed: total }, "old delivered webhook messages removed");
    return total;
  }

  function schedulePrune(): void {
    if (!running) return;
    pruneTimer = setTimeout(() => {
      prune()
        .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, "webhook message pruning failed"))
        .finally(schedulePrune);
    }, options.pruneIntervalMs ?? 3_600_000);
    pruneTimer.unref();
  }

  return {
    id,
    start() {
      if (running) return;
      running = true;
      kick();
      schedulePrune();
    },
    wake: kick,
    async stop(stopOptions = { graceful: true }) {
      running = false;
      clearTimeout(pollTimer);
      clearTimeout(pruneTimer);
      if (!stopOptions.graceful) abort.abort();
      await pumping;
      const queued = [...held.values()].filter((h) => !h.started).map((h) => h.message.id);
      await Promise.allSettled([...inFlight]);
      await repository.release(id, queued).catch(() => undefined);
    },
    prune,
  };
}
