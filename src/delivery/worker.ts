import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { isDatabaseUnavailable } from "../store/database-unavailable.js";
import type { DeliveryQueueRepository, DeliveryTarget, ClaimedJob, ClaimedRetry, Lease, SettledRetry, TargetsAudience } from "../store/delivery-queue-repository.js";
import { encryptedRecordSize, PUSH_RECORD_SIZE } from "../shared/api/notification-payload.js";
import type { Notification, NotificationsRepository } from "../store/notifications-repository.js";
import type { DeliveryOptions } from "./delivery-options.js";
import type { BatchPusher, PayloadOf } from "./push-batch.js";
import { declarativePayloadFor, payloadFor, personalCopy } from "./notification-input.js";
import { retryOutcomeOf, tallyRange } from "./tally.js";
import { groupRetryCauses, pushServiceHost, type RetryCauseInput } from "../store/retry-causes-repository.js";
import type { LoopObservers } from "./loop-observers.js";
import type { LocalTimeGate } from "./gates/local-time-gate.js";
import type { EngagementGate } from "./gates/engagement-gate.js";

/** Structured logging, pino-compatible; never given keys or whole endpoints. */
export interface DeliveryLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface WorkerDeps {
  readonly queue: DeliveryQueueRepository;
  readonly notifications: NotificationsRepository;
  readonly pusher: BatchPusher;
  readonly options: DeliveryOptions;
  readonly clock: () => number;
  readonly logger: DeliveryLogger;
  /** Called with the send after every checkpoint this worker commits. */
  readonly onProgress: (send: Notification) => void;
  /** Identifies this process in lease rows; defaults to `<host>:<pid>:<random>`. */
  readonly id?: string;
  /** Each lane beats `lanes` every time round and per sub-batch; outages are logged once. */
  readonly observers?: LoopObservers;
  /** SINO_PUBLIC_URL: a personalised notification's declarative copies are made against it; absent: classic only. */
  readonly publicUrl?: string;
  /**
   * Each site's origin (null: Sino's own page). A link written as a path means the subscriber's
   * site: a browser on another site gets its declarative copy made against that site's origin.
   */
  readonly siteOrigins?: (fresh: boolean) => Promise<ReadonlyMap<number, string | null>>;
  /** local-time: holds marketing outside each subscriber's window until it opens; absent: nothing is held. */
  readonly localTime?: LocalTimeGate;
  /** gates: frequency caps and sleeping subscribers (src/delivery/gates/engagement-gate.ts); absent: none. */
  readonly engagementGate?: EngagementGate;
}

export interface StopOptions {
  /**
   * true (SIGTERM): claim nothing more, finish the sub-batches in flight, checkpoint them and give
   * the leases back at once. false: drop what is in flight without a checkpoint, as a crash would
   * (the leases expire and another worker resends those sub-batches).
   */
  readonly graceful: boolean;
}

export interface Worker {
  readonly id: string;
  start(): void;
  /** Lets idle lanes look for work now instead of at their next poll. */
  wake(): void;
  stop(options: StopOptions): Promise<void>;
}

/** A notification as the lanes keep it: with `personal` when each person gets their own copy. */
interface CachedNotification {
  readonly send: Notification;
  readonly personal?: PersonalPayloads;
}

const MAX_CACHED_SENDS = 256;
/** Four sends of 10,000 people each at most (their data is at most 1 KB a person). */
const MAX_CACHED_PEOPLE = 40_000;

/**
 * A target's copy of a personalised notification: the stored template filled from its person's data, in
 * the form its browser shows (declarative when it said so and the notification has that form), or
 * undefined when the browser is no longer one of the notification's people. The data were checked when
 * the notification was created (every placeholder has a value, both forms of every copy fit), so filling
 * succeeds.
 */
function personalPayloads(send: Notification, people: ReadonlyMap<string, Readonly<Record<string, string | number | boolean>> | null>): PersonalPayloads {
  const id = String(send.id);
  return (target, linkBase) => {
    if (target.personId === null || !people.has(target.personId)) return undefined;
    try {
      const copy = { ...send, ...personalCopy(send, people.get(target.personId) ?? null) };
      if (target.declarative && send.declarativePayload !== null && linkBase !== undefined) {
        const declarative = declarativePayloadFor(copy, send.tag, id, linkBase);
        // A longer site origin may not fit where SINO_PUBLIC_URL did: Sino's worker shows the classic form too.
        if (encryptedRecordSize(declarative) <= PUSH_RECORD_SIZE) return declarative;
      }
      return payloadFor(copy, send.tag, id);
    } catch {
      return undefined;
    }
  };
}

/** A personalised notification's copy for a target, its declarative form's links made against `linkBase`. */
type PersonalPayloads = (target: DeliveryTarget, linkBase: string | undefined) => string | undefined;

/**
 * Whether the declarative form depends on the subscriber's site: a link written as a path
 * (`/avisos`) means that site, and a notification without a link opens that site's home page (as the
 * classic worker does).
 */
function hasSiteLinks(send: Notification): boolean {
  const links = [send.url, send.icon, send.image, send.badge, ...send.actions.map((action) => action.url)];
  return send.url === null || links.some((link) => link !== null && link.startsWith("/"));
}

/** What the range query needs of a notification's audience. */
function targetsAudience(send: Notification): TargetsAudience {
  return { people: send.audience.kind === "people", segment: send.audience.kind === "segment" };
}

/**
 * A worker process's lanes. Each lane loops: claim due retries, else lease a range job and walk it
 * sub-batch by sub-batch (read, encrypt, send all at once, checkpoint), else sleep until woken or
 * the next poll. Nothing but one sub-batch per lane is ever held in memory.
 */
export function createWorker(deps: WorkerDeps): Worker {
  const { queue, options, clock, logger } = deps;
  const id = deps.id ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const sends = new Map<number, CachedNotification>();
  /** People whose data the cache holds (personalised sends), bounded like the number of notifications. */
  let cachedPeople = 0;
  let stopping = false;
  let abandoned = false;
  let lanes: Promise<void>[] | undefined;
  let sleepers = new Set<() => void>();

  function lease(owner: string): Lease {
    return { owner, now: clock(), leaseMs: options.leaseMs };
  }

  function sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });
  }

  function wake(): void {
    const waiting = sleepers;
    sleepers = new Set();
    for (const done of waiting) done();
  }

  /**
   * The notification's payload, options and people never change once stored: read once per send and
   * process. A personalised send also loads its people's data (at most 10,000 entries).
   */
  async function notificationOf(notificationId: number): Promise<CachedNotification | undefined> {
    const cached = sends.get(notificationId);
    if (cached !== undefined) return cached;
    const send = await deps.notifications.findById(notificationId);
    if (send === undefined) return undefined;
    const people = send.personalised ? await deps.notifications.peopleData(notificationId) : undefined;
    if (sends.size >= MAX_CACHED_SENDS || cachedPeople + (people?.size ?? 0) > MAX_CACHED_PEOPLE) {
      sends.clear();
      cachedPeople = 0;
    }
    const entry: CachedNotification = { send, ...(people === undefined ? {} : { personal: personalPayloads(send, people) }) };
    sends.set(notificationId, entry);
    cachedPeople += people?.size ?? 0;
    return entry;
  }

  /**
   * Each target's payload when it is not simply the notification's stored form: a person's copy, or the
   * declarative form of a notification with links written as paths (or none) for a browser on another
   * site (made against that site's origin, once per site and batch). Undefined: the stored forms serve.
   */
  async function payloadsFor(cached: CachedNotification, targets: readonly DeliveryTarget[]): Promise<PayloadOf | undefined> {
    const { send, personal } = cached;
    const publicUrl = deps.publicUrl;
    const relocate = publicUrl !== undefined && send.declarativePayload !== null && deps.siteOrigins !== undefined && targets.some((t) => t.declarative) && hasSiteLinks(send);
    let origins = relocate ? await deps.siteOrigins!(false) : undefined;
    // A site made since the origins were read: read them again.
    if (origins !== undefined && targets.some((t) => !origins!.has(t.siteId))) origins = await deps.siteOrigins!(true);
    const linkBaseOf = (target: DeliveryTarget): string | undefined => (origins?.get(target.siteId) ?? publicUrl);
    if (personal !== undefined) return (target) => personal(target, linkBaseOf(target));
    if (origins === undefined) return undefined;
    const id = String(send.id);
    const bySite = new Map<string, string>();
    return (target) => {
      if (!target.declarative) return send.payload;
      const base = linkBaseOf(target)!;
      if (base === publicUrl) return send.declarativePayload!;
      let payload = bySite.get(base);
      if (payload === undefined) {
        const declarative = declarativePayloadFor(send, send.tag, id, base);
        // A longer site origin may not fit where SINO_PUBLIC_URL did: Sino's worker shows the classic form too.
        payload = encryptedRecordSize(declarative) <= PUSH_RECORD_SIZE ? declarative : send.payload;
        bySite.set(base, payload);
      }
      return payload;
    };
  }

  function publish(send: Notification | undefined): void {
    if (send !== undefined) deps.onProgress(send);
  }

  async function runLane(owner: string): Promise<void> {
    while (!stopping) {
      let worked = false;
      deps.observers?.heartbeat?.beat("lanes");
      try {
        worked = await runOnce(owner);
        deps.observers?.outage?.succeeded();
      } catch (error) {
        // A database hiccup must not end the lane. What it held stays leased to this lane, which
        // takes it back on its next claim (other workers after the lease): the sub-batch in
        // flight, sent but not checkpointed, is sent again, so at most one sub-batch per lane
        // is duplicated. The outage tracker logs its start and end once for every lane.
        if (deps.observers?.outage?.failed(error, "lanes") !== true) {
          if (isDatabaseUnavailable(error)) logger.warn({ lane: owner, cause: error instanceof Error ? error.message : String(error) }, "database unavailable; the delivery lane retries after a pause");
          else logger.error({ err: error, lane: owner }, "delivery lane failed; retrying after a pause");
        }
      }
      if (!worked && !stopping) await sleep(options.pollMs);
    }
  }

  /**
   * A 403 means the subscriptions were made with another VAPID key (the keys were changed or
   * another server's were used): the operator must know, since nothing reaches those browsers
   * until they register again. The subscriptions are flagged in the same checkpoint.
   */
  function warnFlagged(count: number, send: number, lane: string): void {
    if (count > 0) logger.warn({ send, subscriptions: count, lane }, "push service refused the VAPID key (403): subscriptions flagged, not sent to until they register again");
  }

  /**
   * Why pushes will be tried again and when, one line per push service host and cause of a
   * batch (never one per push): what an operator looking at a notification stuck "em nova tentativa"
   * needs, without the endpoints (capability URLs).
   */
  function logRetries(send: number, lane: string, retries: readonly RetryCauseInput[]): void {
    if (retries.length === 0) return;
    for (const cause of groupRetryCauses(retries)) {
      logger.warn(
        {
          send,
          lane,
          host: cause.host,
          reason: cause.reason,
          ...(cause.status > 0 ? { status: cause.status } : {}),
          pushes: cause.pushes,
          nextAttemptAt: new Date(cause.nextAttemptAt).toISOString(),
          ...(cause.detail === null ? {} : { detail: cause.detail }),
        },
        "push service did not take these pushes; they will be retried",
      );
    }
  }

  async function runOnce(owner: string): Promise<boolean> {
    const retries = await queue.claimRetries(lease(owner), options.batchSize);
    if (retries.length > 0) {
      await runRetries(owner, retries);
      return true;
    }
    const job = await queue.claimJob(lease(owner));
    if (job === undefined) return false;
    await runJob(owner, job);
    return true;
  }

  async function runJob(owner: string, claimed: ClaimedJob): Promise<void> {
    const cached = await notificationOf(claimed.notificationId);
    if (cached === undefined) return; // deleted with its jobs
    const { send } = cached;
    let job = claimed;
    for (;;) {
      const now = clock();
      // TTL 0 means "now or never" to the push service, not "already expired" to us.
      if (send.ttlSeconds > 0 && now >= send.expiresAt) {
        publish(await queue.expireJob(lease(owner), job));
        return;
      }
      const listed = await queue.listTargets(job, job.cursor, options.batchSize, targetsAudience(send));
      const cursor = listed.length < options.batchSize ? job.toId : listed[listed.length - 1]!.id;
      // gates: over their cap or sleeping, kept back (counted `limited` / `asleep` in the checkpoint).
      const gated = deps.engagementGate === undefined ? undefined : await deps.engagementGate(send, listed, now);
      const open = gated?.targets ?? listed;
      // local-time gate: outside their window, targets wait (or expire) instead of being pushed now.
      const local = deps.localTime === undefined ? undefined : await deps.localTime.sort(send, open, now);
      const targets = local === undefined ? open : local.sendable;
      const outcomes = await deps.pusher.push(send, targets.map((target) => ({ target, attempt: 1 })), now, await payloadsFor(cached, targets));
      if (abandoned) return;
      const tallied = { ...tallyRange(targets, outcomes), held: local?.held };
      const result = gated?.skips === undefined ? tallied : { ...tallied, engagement: gated.skips }; // gates
      warnFlagged(result.flagged.length, job.notificationId, owner);
      logRetries(job.notificationId, owner, result.retries);
      const updated = await queue.checkpoint(lease(owner), { job, cursor, result });
      if (updated === undefined) {
        logger.warn({ job: job.id, send: job.notificationId, lane: owner }, "lease lost or send cancelled; dropping the job");
        return;
      }
      publish(updated);
      deps.observers?.heartbeat?.beat("lanes");
      if (cursor >= job.toId) return;
      job = { ...job, cursor };
      if (stopping) {
        await queue.releaseJob(owner, job);
        return;
      }
    }
  }

  async function runRetries(owner: string, retries: readonly ClaimedRetry[]): Promise<void> {
    const now = clock();
    const settled: SettledRetry[] = [];
    const byNotification = new Map<number, ClaimedRetry[]>();
    for (const retry of retries) {
      if (retry.target === undefined) {
        // Unsubscribed since the first attempt.
        settled.push({ retry, outcome: { kind: "removed" } });
        continue;
      }
      const list = byNotification.get(retry.notificationId) ?? [];
      list.push(retry);
      byNotification.set(retry.notificationId, list);
    }
    await Promise.all(
      [...byNotification].map(async ([notificationId, list]) => {
        const cached = await notificationOf(notificationId);
        if (cached === undefined) return;
        const { send } = cached;
        if (send.ttlSeconds > 0 && now >= send.expiresAt) {
          // RFC 8030 §5.2: past its TTL the message must not be sent at all.
          for (const retry of list) settled.push({ retry, outcome: { kind: "failed", reason: "expired" } });
          return;
        }
        const targets = list.map((r) => r.target!);
        const outcomes = await deps.pusher.push(send, list.map((r) => ({ target: r.target!, attempt: r.attempt })), now, await payloadsFor(cached, targets));
        const again: RetryCauseInput[] = [];
        outcomes.forEach((outcome, i) => {
          const result = retryOutcomeOf(outcome);
          settled.push({ retry: list[i]!, outcome: result });
          if (result.kind === "retry") {
            again.push({ host: pushServiceHost(list[i]!.target!.endpoint), reason: result.reason, status: result.status ?? 0, notBefore: result.notBefore, detail: result.detail });
          }
        });
        logRetries(notificationId, owner, again);
        warnFlagged(outcomes.filter((o) => o.kind === "fatal" && o.flag === "vapid_mismatch").length, notificationId, owner);
      }),
    );
    if (abandoned) return;
    for (const send of await queue.settleRetries(lease(owner), settled)) publish(send);
  }

  return {
    id,
    start() {
      if (lanes !== undefined) return;
      lanes = Array.from({ length: options.lanes }, (_, lane) => runLane(`${id}/${lane}`));
      logger.info({ worker: id, lanes: options.lanes, batch: options.batchSize }, "delivery worker started");
    },
    wake,
    async stop({ graceful }) {
      stopping = true;
      abandoned = !graceful;
      wake();
      await Promise.all(lanes ?? []);
      if (graceful && lanes !== undefined) {
        await Promise.all(Array.from({ length: options.lanes }, (_, lane) => queue.releaseRetries(`${id}/${lane}`)));
      }
      lanes = undefined;
    },
  };
}
