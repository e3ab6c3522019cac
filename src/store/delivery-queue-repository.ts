import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import { toNotification, type Notification } from "./notifications-repository.js";
import type { Schema } from "./schema.js";
import { inNotificationAudience, inNotificationSites, inNotificationTargets, notFlagged } from "./audience-filter.js";
import {
  completedEvent,
  enqueueIfHooked,
  insertRecipientRows,
  recipientEvent,
  recipientOfRow,
  type Recipient,
  type RecipientResult,
} from "./recipient-outcomes.js";
import type { WebhookEvent } from "../shared/api/webhook-events.js";
import { removeSubscriptionsLogged } from "./subscription-removals.js";
import { writeTransaction } from "./write-transaction.js";
import { recordEngagementSkips, type EngagementSkips } from "./delivery-gates-repository.js";
import { ENGAGEMENT_COLUMNS, engagementOf, type EngagementRow } from "./engagement-columns.js";
import { groupRetryCauses, pushServiceHost, recordRetryCauses, type RetryCauseInput } from "./retry-causes-repository.js";
import { recordHeld, refreshWaitingUntil, WINDOW_REASON, type HeldRecipients } from "./local-time-store.js";

/** A range job held by one lane: subscriptions with `cursor < id <= toId` are still to be sent. */
export interface ClaimedJob {
  readonly id: number;
  readonly notificationId: number;
  readonly cursor: number;
  readonly toId: number;
}

/** What a push needs from a subscription. */
export interface DeliveryTarget {
  readonly id: number;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  /** The person the subscription is identified as (a `people` send fills its copy from their data). */
  readonly personId: string | null;
  readonly siteId: number;
  /** The browser shows Declarative Web Push messages: it gets the notification's declarative payload. */
  readonly declarative: boolean;
  /** local-time: the IANA zone the bell reported (null: none), and the subscriber's own quiet hours `HH:MM-HH:MM`. */
  readonly timeZone: string | null;
  readonly quietHours: string | null;
  /** The VAPID key (`vapid_keys.id`) the subscription was made with, which its pushes are signed with; null: Sino's default. */
  readonly vapidKeyId: number | null;
  /** gates: the last click or visit (`created_at` before any visit): sleeping when older than SINO_SLEEPING_DAYS. */
  readonly lastActiveAt: number;
  /** gates: the last re-engagement push it was sent; null: none. */
  readonly reengagedAt: number | null;
}

export interface NewRetry {
  readonly recipient: Recipient;
  /** The attempt the retry will make (2 for the first retry). */
  readonly attempt: number;
  readonly notBefore: number;
  readonly reason: string;
  /** The push service's host, the HTTP status (0: no answer) and the start of its answer: the retry's cause. */
  readonly host: string;
  readonly status: number;
  readonly detail?: string | undefined;
}

/** The settled outcome of every target of one sub-batch of a range job. */
export interface RangeBatchResult {
  readonly accepted: readonly Recipient[];
  /** Failed for good, with the classifier's reason. */
  readonly failed: readonly FailedRecipient[];
  /** 404/410: removed from the database, counted as removed. */
  readonly gone: readonly Recipient[];
  /** 403: the subscription is kept and flagged (counted as failed too). */
  readonly flagged: readonly number[];
  readonly retries: readonly NewRetry[];
  /** local-time: held for the subscribers' windows (waiting) or dropped as their TTL ends first (expired). */
  readonly held?: HeldRecipients | undefined;
  /** gates: what the engagement gate kept back (over the cap, sleeping) and the re-engaged. */
  readonly engagement?: EngagementSkips;
}

export interface FailedRecipient {
  readonly recipient: Recipient;
  readonly reason: string;
}

export interface RangeCheckpoint {
  readonly job: ClaimedJob;
  /** The cursor after this sub-batch: the last id sent, or `toId` when the range is exhausted. */
  readonly cursor: number;
  readonly result: RangeBatchResult;
}

/** A retry row held by one lane. `target` is undefined when the subscription was removed meanwhile. */
export interface ClaimedRetry {
  readonly id: number;
  readonly notificationId: number;
  readonly subscriptionId: number;
  readonly attempt: number;
  readonly target: DeliveryTarget | undefined;
  /** local-time: a first attempt that waited for the subscriber's window (counted in `waiting`, not `retrying`). */
  readonly waited: boolean;
}

export type RetryOutcome =
  | { readonly kind: "accepted" }
  | { readonly kind: "failed"; readonly reason?: string; readonly flag?: boolean }
  | { readonly kind: "removed" }
  | { readonly kind: "retry"; readonly notBefore: number; readonly reason: string; readonly status?: number; readonly detail?: string | undefined };

export interface SettledRetry {
  readonly retry: ClaimedRetry;
  readonly outcome: RetryOutcome;
}

export interface Lease {
  readonly owner: string;
  readonly now: number;
  readonly leaseMs: number;
}

export interface DeliveryQueueRepository {
  /** Leases the oldest range job nobody holds (or whose lease ran out), or undefined. */
  claimJob(lease: Lease): Promise<ClaimedJob | undefined>;
  /**
   * The next `limit` targets of a job after `cursor`, in id order. `people`: the notification is a
   * `people` send (its audience is its people on its sites), which the query reaches by person.
   */
  listTargets(job: ClaimedJob, cursor: number, limit: number, audience?: TargetsAudience): Promise<DeliveryTarget[]>;
  /**
   * Records one sub-batch in one transaction: counters, removals, flags and retry rows, the
   * cursor moved and the lease renewed. Returns undefined, changing nothing, when the lease is no
   * longer ours (it expired and another worker took the job, or the notification was cancelled): the
   * lane must then drop the job. Otherwise the send as it now is.
   */
  checkpoint(lease: Lease, checkpoint: RangeCheckpoint): Promise<Notification | undefined>;
  /** Ends a job whose send expired: every target not yet reached is counted as failed. */
  expireJob(lease: Lease, job: ClaimedJob): Promise<Notification | undefined>;
  /** Gives a job back at once (graceful stop) so another worker need not wait for the lease. */
  releaseJob(owner: string, job: ClaimedJob): Promise<void>;
  /** Leases up to `limit` retries that are due. */
  claimRetries(lease: Lease, limit: number): Promise<ClaimedRetry[]>;
  /**
   * Records the outcomes of claimed retries; rows whose lease was lost are skipped. Returns the
   * sends that changed.
   */
  settleRetries(lease: Lease, settled: readonly SettledRetry[]): Promise<Notification[]>;
  /** Gives back every retry row `owner` still holds. */
  releaseRetries(owner: string): Promise<void>;
}

/** What the range query needs to know of a notification beyond its id. */
export interface TargetsAudience {
  /** A `people` send: reached through its people's (person_id, id) index entries. */
  readonly people: boolean;
  /** A `segment` send: its targets are its notification_targets rows, taken when it started. */
  readonly segment?: boolean;
}

const INSERT_CHUNK = 500;

/** The columns a push (and the gates) read of a subscription: the range query's and the retries' select list. */
const TARGET_COLUMNS = ["id", "endpoint", "p256dh", "auth", "person_id", "site_id", "declarative", "time_zone", "quiet_hours", "vapid_key_id", ...ENGAGEMENT_COLUMNS] as const;

type TargetRow = {
  id: number | string;
  endpoint: string;
  p256dh: string;
  auth: string;
  person_id: string | null;
  site_id: number | string;
  declarative: number | string;
  time_zone: string | null;
  quiet_hours: string | null;
  vapid_key_id: number | string | null;
} & EngagementRow;

function toTarget(row: TargetRow): DeliveryTarget {
  return {
    id: Number(row.id),
    endpoint: row.endpoint,
    p256dh: row.p256dh,
    auth: row.auth,
    personId: row.person_id,
    siteId: Number(row.site_id),
    declarative: Number(row.declarative) === 1,
    timeZone: row.time_zone,
    quietHours: row.quiet_hours,
    vapidKeyId: row.vapid_key_id === null ? null : Number(row.vapid_key_id),
    ...engagementOf(row),
  };
}

/**
 * A row nobody holds (or whose lease ran out), or one this very lane holds: a lane whose work
 * failed half-way (the database connection dropped) claims it straight back when the database
 * returns, instead of waiting for its own lease to expire. A lane claims only when it holds
 * nothing in progress, so it never takes a row from under itself.
 */
function leaseFreeOrMine(lease: Lease) {
  return (eb: ExpressionBuilder<Schema, "delivery_jobs" | "delivery_retries">) =>
    eb.or([eb("lease_until", "<=", lease.now), eb("lease_owner", "=", lease.owner)]);
}

export function createDeliveryQueueRepository(database: DatabaseHandle): DeliveryQueueRepository {
  const { db, dialect } = database;
  const postgres = dialect === "postgres";

  async function claimJob(lease: Lease): Promise<ClaimedJob | undefined> {
    // PostgreSQL: SKIP LOCKED lets many workers claim at once, each getting a different row
    // without waiting on the others' locks. SQLite has one writer at a time: no lock clause needed.
    const row = await db
      .updateTable("delivery_jobs")
      .set({ lease_owner: lease.owner, lease_until: lease.now + lease.leaseMs })
      .where("id", "=", (eb) =>
        eb
          .selectFrom("delivery_jobs")
          .select("id")
          .where("done", "=", 0)
          .where(leaseFreeOrMine(lease))
          .orderBy("id")
          .limit(1)
          .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
      )
      .returningAll()
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const job = { id: Number(row.id), notificationId: Number(row.notification_id), cursor: Number(row.cursor), toId: Number(row.to_id) };
    await db
      .updateTable("notifications")
      .set({ status: "sending" })
      .where("id", "=", job.notificationId)
      .where("status", "=", "queued")
      .execute();
    return job;
  }

  async function listTargets(job: ClaimedJob, cursor: number, limit: number, audience?: TargetsAudience): Promise<DeliveryTarget[]> {
    const rows = await db
      .selectFrom("subscriptions")
      .select(TARGET_COLUMNS)
      .where("id", ">", cursor)
      .where("id", "<=", job.toId)
      // A people notification's targets are few and scattered over the whole id range (each person's
      // devices registered at different times): reached through the (person_id, id) index, one
      // probe per person, instead of walking every id of the range and testing each row.
      .$if(audience?.people === true, (qb) =>
        qb
          .where("subscriptions.person_id", "in", (eb) => eb.selectFrom("notification_people").select("notification_people.person_id").where("notification_people.notification_id", "=", job.notificationId))
          .where(inNotificationSites(job.notificationId)),
      )
      // A segment notification's targets were taken when it started (notification_targets): a range of
      // their primary key, no per-row test of the expression. PostgreSQL walked a notification of 50,000 at
      // 0.81-0.88 of an all-audience notification's msgs/s with per-row probes (bench/segments.ts).
      .$if(audience?.segment === true, (qb) => qb.where(inNotificationTargets(job.notificationId, cursor, job.toId)))
      .$if(audience?.people !== true && audience?.segment !== true, (qb) => qb.where(inNotificationAudience(job.notificationId)))
      .where(notFlagged())
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toTarget);
  }

  async function checkpoint(lease: Lease, { job, cursor, result }: RangeCheckpoint): Promise<Notification | undefined> {
    const done = cursor >= job.toId;
    return inTransaction(async (trx) => {
      await lockNotification(trx, job.notificationId);
      const moved = await trx
        .updateTable("delivery_jobs")
        .set({ cursor, done: done ? 1 : 0, lease_until: done ? lease.now : lease.now + lease.leaseMs })
        .where("id", "=", job.id)
        .where("lease_owner", "=", lease.owner)
        .where("cursor", "=", job.cursor)
        .where("done", "=", 0)
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) return undefined;

      await trx
        .updateTable("notifications")
        .set((eb) => ({
          accepted: eb("accepted", "+", result.accepted.length),
          failed: eb("failed", "+", result.failed.length),
          removed: eb("removed", "+", result.gone.length),
          retrying: eb("retrying", "+", result.retries.length),
        }))
        .where("id", "=", job.notificationId)
        .execute();
      await removeSubscriptionsLogged(trx, result.gone.map((r) => r.id), "gone", lease.now);
      if (result.flagged.length > 0) {
        await trx.updateTable("subscriptions").set({ vapid_mismatch_at: lease.now }).where("id", "in", [...result.flagged]).execute();
      }
      const rows = result.retries.map((r) => ({
        notification_id: job.notificationId,
        subscription_id: r.recipient.id,
        attempt: r.attempt,
        not_before: r.notBefore,
        last_reason: r.reason,
      }));
      for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
        await trx.insertInto("delivery_retries").values(rows.slice(i, i + INSERT_CHUNK)).execute();
      }
      if (result.retries.length > 0) await recordRetryCauses(trx, job.notificationId, groupRetryCauses(result.retries), lease.now);
      await recordHeld(trx, job.notificationId, result.held, lease.now); // local-time
      const recipients = recipientResults(result);
      await insertRecipientRows(trx, job.notificationId, recipients, lease.now);
      await recordEngagementSkips(trx, job.notificationId, result.engagement, lease.now); // gates
      await enqueueIfHooked(trx, () => recipientEvents(job.notificationId, recipients), lease.now);
      if (done) await finishIfSettled(trx, job.notificationId, lease.now);
      return readNotification(trx, job.notificationId);
    });
  }

  async function expireJob(lease: Lease, job: ClaimedJob): Promise<Notification | undefined> {
    return inTransaction(async (trx) => {
      await lockNotification(trx, job.notificationId);
      const moved = await trx
        .updateTable("delivery_jobs")
        .set({ cursor: job.toId, done: 1, lease_until: lease.now })
        .where("id", "=", job.id)
        .where("lease_owner", "=", lease.owner)
        .where("cursor", "=", job.cursor)
        .where("done", "=", 0)
        .executeTakeFirst();
      if (moved.numUpdatedRows === 0n) return undefined;
      // A segment notification's targets are its notification_targets rows, as the workers read them.
      const send = await trx.selectFrom("notifications").select("audience").where("id", "=", job.notificationId).executeTakeFirstOrThrow();
      const segment = (JSON.parse(send.audience) as { kind: string }).kind === "segment";
      // Every target not reached gets its row, failed as "expired", in one INSERT ... SELECT; the
      // rows inserted are the count. Literals, not parameters: PostgreSQL types a parameter in a
      // select list as text, which a bigint column then refuses.
      const inserted = await trx
        .insertInto("notification_recipients")
        .columns(["notification_id", "subscription_id", "person_id", "site_id", "outcome", "reason", "attempts", "updated_at"])
        .expression((eb) =>
          eb
            .selectFrom("subscriptions")
            .select([
              sql<number>`${sql.lit(job.notificationId)}`.as("notification_id"),
              "id",
              "person_id",
              "site_id",
              sql<string>`${sql.lit("failed")}`.as("outcome"),
              sql<string>`${sql.lit("expired")}`.as("reason"),
              sql<number>`${sql.lit(0)}`.as("attempts"),
              sql<number>`${sql.lit(lease.now)}`.as("updated_at"),
            ])
            .where("id", ">", job.cursor)
            .where("id", "<=", job.toId)
            .where(segment ? inNotificationTargets(job.notificationId, job.cursor, job.toId) : inNotificationAudience(job.notificationId))
            .where(notFlagged()),
        )
        .onConflict((oc) => oc.columns(["notification_id", "subscription_id"]).doNothing())
        .executeTakeFirst();
      await trx
        .updateTable("notifications")
        .set((eb) => ({ failed: eb("failed", "+", Number(inserted.numInsertedOrUpdatedRows ?? 0n)) }))
        .where("id", "=", job.notificationId)
        .execute();
      await enqueueIfHooked(trx, async () => {
        const rows = await trx
          .selectFrom("notification_recipients")
          .select(["subscription_id", "person_id", "site_id"])
          .where("notification_id", "=", job.notificationId)
          .where("subscription_id", ">", job.cursor)
          .where("subscription_id", "<=", job.toId)
          .where("reason", "=", "expired")
          .orderBy("subscription_id")
          .execute();
        return rows.map((r) => recipientEvent(job.notificationId, recipientOfRow(r), "failed", "expired")!);
      }, lease.now);
      await finishIfSettled(trx, job.notificationId, lease.now);
      return readNotification(trx, job.notificationId);
    });
  }

  async function releaseJob(owner: string, job: ClaimedJob): Promise<void> {
    await db
      .updateTable("delivery_jobs")
      .set({ lease_owner: null, lease_until: 0 })
      .where("id", "=", job.id)
      .where("lease_owner", "=", owner)
      .where("done", "=", 0)
      .execute();
  }

  async function claimRetries(lease: Lease, limit: number): Promise<ClaimedRetry[]> {
    const rows = await db
      .updateTable("delivery_retries")
      .set({ lease_owner: lease.owner, lease_until: lease.now + lease.leaseMs })
      .where("id", "in", (eb) =>
        eb
          .selectFrom("delivery_retries")
          .select("id")
          .where("not_before", "<=", lease.now)
          .where(leaseFreeOrMine(lease))
          .orderBy("not_before")
          .limit(limit)
          .$if(postgres, (qb) => qb.forUpdate().skipLocked()),
      )
      .returningAll()
      .execute();
    if (rows.length === 0) return [];
    const ids = rows.map((r) => Number(r.subscription_id));
    const subscriptions = await db
      .selectFrom("subscriptions")
      .select(TARGET_COLUMNS)
      .where("id", "in", ids)
      .execute();
    const byId = new Map(subscriptions.map((s) => [Number(s.id), toTarget(s)]));
    return rows.map((r) => ({
      id: Number(r.id),
      notificationId: Number(r.notification_id),
      subscriptionId: Number(r.subscription_id),
      attempt: Number(r.attempt),
      target: byId.get(Number(r.subscription_id)),
      waited: r.last_reason === WINDOW_REASON,
    }));
  }

  async function settleRetries(lease: Lease, settled: readonly SettledRetry[]): Promise<Notification[]> {
    if (settled.length === 0) return [];
    const byNotification = new Map<number, SettledRetry[]>();
    for (const s of settled) {
      const list = byNotification.get(s.retry.notificationId) ?? [];
      list.push(s);
      byNotification.set(s.retry.notificationId, list);
    }
    return inTransaction(async (trx) => {
      const changed: Notification[] = [];
      // Ascending ids: two lanes settling retries of the same sends lock them in the same order.
      for (const notificationId of [...byNotification.keys()].sort((a, b) => a - b)) {
        await lockNotification(trx, notificationId);
        const counts = { accepted: 0, failed: 0, removed: 0, settled: 0, expired: 0 };
        // local-time: waiting rows settled (or moved on to a retry) leave `waiting`, not `retrying`.
        const waited = { settled: 0, retrying: 0 };
        const gone: number[] = [];
        const flagged: number[] = [];
        const events: WebhookEvent[] = [];
        const causes: RetryCauseInput[] = [];
        for (const { retry, outcome } of byNotification.get(notificationId)!) {
          const mine = trx.updateTable("delivery_retries").where("id", "=", retry.id).where("lease_owner", "=", lease.owner);
          const row = trx
            .updateTable("notification_recipients")
            .where("notification_id", "=", notificationId)
            .where("subscription_id", "=", retry.subscriptionId);
          if (outcome.kind === "retry") {
            const moved = await mine
              .set({ attempt: retry.attempt + 1, not_before: outcome.notBefore, last_reason: outcome.reason, lease_owner: null, lease_until: 0 })
              .executeTakeFirst();
            if (moved.numUpdatedRows > 0n) {
              if (retry.waited) waited.retrying++;
              await row.set({ ...(retry.waited ? { outcome: "retrying" as const } : {}), attempts: retry.attempt, reason: outcome.reason, updated_at: lease.now }).execute();
              causes.push({
                host: retry.target === undefined ? "?" : pushServiceHost(retry.target.endpoint),
                reason: outcome.reason,
                status: outcome.status ?? 0,
                notBefore: outcome.notBefore,
                detail: outcome.detail,
              });
            }
            continue;
          }
          const deleted = await trx
            .deleteFrom("delivery_retries")
            .where("id", "=", retry.id)
            .where("lease_owner", "=", lease.owner)
            .executeTakeFirst();
          if (deleted.numDeletedRows === 0n) continue; // lease lost: whoever holds it now counts it
          if (retry.waited) waited.settled++;
          else counts.settled++;
          let final: RecipientResult["outcome"];
          let reason: string | null = null;
          if (outcome.kind === "accepted") {
            counts.accepted++;
            final = "accepted";
          } else if (outcome.kind === "removed") {
            counts.removed++;
            final = "removed";
            reason = "gone";
            if (retry.target !== undefined) gone.push(retry.subscriptionId);
            else reason = "removed"; // gone before its retry (unsubscribed, hygiene)
          } else if (retry.waited && outcome.reason === "expired") {
            // local-time: its TTL ended while it waited (no worker was up at the opening): dropped.
            counts.expired++;
            final = "expired";
            reason = "expired";
          } else {
            counts.failed++;
            final = "failed";
            reason = outcome.reason ?? "failed";
            if (outcome.flag === true) flagged.push(retry.subscriptionId);
          }
          const updated = await row
            .set({ outcome: final, reason, attempts: retry.attempt, updated_at: lease.now })
            .returning(["subscription_id", "person_id", "site_id"])
            .executeTakeFirst();
          const recipient = updated === undefined ? retry.target : recipientOfRow(updated);
          if (recipient !== undefined) events.push(recipientEvent(notificationId, recipient, final, reason)!);
        }
        await enqueueIfHooked(trx, () => events, lease.now);
        await recordRetryCauses(trx, notificationId, groupRetryCauses(causes), lease.now);
        if (counts.settled > 0 || waited.settled > 0 || waited.retrying > 0) {
          await trx
            .updateTable("notifications")
            .set((eb) => ({
              accepted: eb("accepted", "+", counts.accepted),
              failed: eb("failed", "+", counts.failed),
              removed: eb("removed", "+", counts.removed),
              retrying: eb("retrying", "+", waited.retrying - counts.settled),
              waiting: eb("waiting", "-", waited.settled + waited.retrying),
              expired: eb("expired", "+", counts.expired),
            }))
            .where("id", "=", notificationId)
            .execute();
        }
        if (waited.settled > 0 || waited.retrying > 0) await refreshWaitingUntil(trx, notificationId); // local-time
        await removeSubscriptionsLogged(trx, gone, "gone", lease.now);
        if (flagged.length > 0) await trx.updateTable("subscriptions").set({ vapid_mismatch_at: lease.now }).where("id", "in", flagged).execute();
        await finishIfSettled(trx, notificationId, lease.now);
        const notification = await readNotification(trx, notificationId);
        if (notification !== undefined) changed.push(notification);
      }
      return changed;
    });
  }

  async function releaseRetries(owner: string): Promise<void> {
    await db.updateTable("delivery_retries").set({ lease_owner: null, lease_until: 0 }).where("lease_owner", "=", owner).execute();
  }

  function inTransaction<T>(work: (trx: Kysely<Schema>) => Promise<T>): Promise<T> {
    return writeTransaction(database, work);
  }

  async function lockNotification(trx: Kysely<Schema>, id: number): Promise<void> {
    // Every transaction that changes a notification's counters, jobs or retries takes this row lock first.
    // Besides ordering the locks, it makes the completion check below see the other lanes'
    // committed work (READ COMMITTED reads a fresh snapshot per statement once the lock is ours),
    // so exactly one transaction finds the notification settled.
    if (postgres) await trx.selectFrom("notifications").select("id").where("id", "=", id).forUpdate().execute();
  }

  return { claimJob, listTargets, checkpoint, expireJob, releaseJob, claimRetries, settleRetries, releaseRetries };
}

/** A sub-batch's first-attempt outcomes, as `notification_recipients` rows keep them. */
function recipientResults(result: RangeBatchResult): RecipientResult[] {
  const rows: RecipientResult[] = [];
  for (const recipient of result.accepted) rows.push({ recipient, outcome: "accepted", reason: null });
  for (const { recipient, reason } of result.failed) rows.push({ recipient, outcome: "failed", reason });
  for (const recipient of result.gone) rows.push({ recipient, outcome: "removed", reason: "gone" });
  for (const { recipient, reason } of result.retries) rows.push({ recipient, outcome: "retrying", reason });
  return rows;
}

function recipientEvents(notificationId: number, results: readonly RecipientResult[]): WebhookEvent[] {
  const events: WebhookEvent[] = [];
  for (const { recipient, outcome, reason } of results) {
    const event = recipientEvent(notificationId, recipient, outcome, reason);
    if (event !== undefined) events.push(event);
  }
  return events;
}

/**
 * Marks a notification finished once no job and no retry is left, exactly once (the status guard). A
 * target that vanished before its range was reached (unsubscribed meanwhile) was never counted:
 * it is added to `removed` here, so that accepted + failed + removed + limited + asleep + expired = queued.
 */
async function finishIfSettled(trx: Kysely<Schema>, notificationId: number, now: number): Promise<void> {
  const pendingJob = await trx
    .selectFrom("delivery_jobs")
    .select("id")
    .where("notification_id", "=", notificationId)
    .where("done", "=", 0)
    .limit(1)
    .executeTakeFirst();
  if (pendingJob !== undefined) return;
  const pendingRetry = await trx
    .selectFrom("delivery_retries")
    .select("id")
    .where("notification_id", "=", notificationId)
    .limit(1)
    .executeTakeFirst();
  if (pendingRetry !== undefined) return;
  const finished = await trx
    .updateTable("notifications")
    .set({
      status: sql`case when accepted = 0 and failed > 0 then 'failed' else 'completed' end`,
      removed: sql`case when queued - accepted - failed - limited - asleep - expired > removed then queued - accepted - failed - limited - asleep - expired else removed end`,
      finished_at: now,
    })
    .where("id", "=", notificationId)
    .where("status", "in", ["queued", "sending"])
    .returningAll()
    .executeTakeFirst();
  if (finished !== undefined) {
    const send = toNotification(finished);
    await enqueueIfHooked(trx, () => [completedEvent(send)], now);
  }
}

async function readNotification(trx: Kysely<Schema>, id: number): Promise<Notification | undefined> {
  const row = await trx.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
  return row === undefined ? undefined : toNotification(row);
}

