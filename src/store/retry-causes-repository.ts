import { WINDOW_REASON } from "./local-time-store.js";
import type { Kysely } from "kysely";
import type { DatabaseHandle } from "./database.js";
import type { Schema } from "./schema.js";

/** One push that will be tried again, as far as its cause goes. */
export interface RetryCauseInput {
  /** The push service's host (from the endpoint; never the endpoint itself). */
  readonly host: string;
  readonly reason: string;
  /** HTTP status answered; 0 when no answer came. */
  readonly status: number;
  readonly notBefore: number;
  /** The start of the push service's answer body. */
  readonly detail?: string | undefined;
}

/** Pushes of one batch grouped by cause: what one row of `notification_retry_causes` adds up. */
export interface RetryCauseGroup {
  readonly host: string;
  readonly reason: string;
  readonly status: number;
  readonly pushes: number;
  /** The soonest retry of the group. */
  readonly nextAttemptAt: number;
  readonly detail: string | null;
}

export interface RetryCauseRecord extends RetryCauseGroup {
  readonly firstAt: number;
  readonly lastAt: number;
}

export interface NotificationRetries {
  /** Pushes waiting for another attempt now (the notification's retry rows). */
  readonly waiting: number;
  /** The soonest of them; null when none waits. */
  readonly nextAttemptAt: number | null;
  /** Newest cause first. */
  readonly causes: readonly RetryCauseRecord[];
}

export interface RetryCausesRepository {
  forNotification(notificationId: number): Promise<NotificationRetries>;
}

const DETAIL_CHARS = 200;

/** The push service's host of an endpoint, or `?` for one that does not parse (never stored whole). */
export function pushServiceHost(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "?";
  }
}

/**
 * Groups a batch's retries by (host, reason, status). A body detail is kept only for an HTTP
 * answer (a transport error's message names addresses, which the operator's page need not show).
 */
export function groupRetryCauses(items: Iterable<RetryCauseInput>): RetryCauseGroup[] {
  const groups = new Map<string, { host: string; reason: string; status: number; pushes: number; nextAttemptAt: number; detail: string | null }>();
  for (const item of items) {
    const key = `${item.host}\u0000${item.reason}\u0000${item.status}`;
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, {
        host: item.host,
        reason: item.reason,
        status: item.status,
        pushes: 1,
        nextAttemptAt: item.notBefore,
        detail: item.status > 0 && item.detail !== undefined && item.detail !== "" ? cleanDetail(item.detail) : null,
      });
    } else {
      group.pushes += 1;
      group.nextAttemptAt = Math.min(group.nextAttemptAt, item.notBefore);
    }
  }
  return [...groups.values()];
}

/** Control characters out (it is shown in a page and a CSV), at most 200 characters. */
function cleanDetail(detail: string): string {
  // eslint-disable-next-line no-control-regex
  return detail.replace(/[\u0000-\u001f\u007f]+/g, " ").trim().slice(0, DETAIL_CHARS);
}

/**
 * Adds a batch's retry causes to a notification's rows, inside the caller's transaction: one statement
 * per batch (never one per push), and none at all for a batch without retries.
 */
export async function recordRetryCauses(trx: Kysely<Schema>, notificationId: number, groups: readonly RetryCauseGroup[], now: number): Promise<void> {
  if (groups.length === 0) return;
  await trx
    .insertInto("notification_retry_causes")
    .values(
      groups.map((g) => ({
        notification_id: notificationId,
        host: g.host,
        reason: g.reason,
        status: g.status,
        pushes: g.pushes,
        first_at: now,
        last_at: now,
        next_attempt_at: g.nextAttemptAt,
        detail: g.detail,
      })),
    )
    .onConflict((oc) =>
      oc.columns(["notification_id", "host", "reason", "status"]).doUpdateSet((eb) => ({
        pushes: eb("notification_retry_causes.pushes", "+", eb.ref("excluded.pushes")),
        last_at: eb.ref("excluded.last_at"),
        next_attempt_at: eb.ref("excluded.next_attempt_at"),
        detail: eb.fn.coalesce("excluded.detail", "notification_retry_causes.detail"),
      })),
    )
    .execute();
}

export function createRetryCausesRepository(database: DatabaseHandle): RetryCausesRepository {
  const { db } = database;
  return {
    async forNotification(notificationId) {
      const [waiting, rows] = await Promise.all([
        db
          .selectFrom("delivery_retries")
          .select((eb) => [eb.fn.countAll<number | string>().as("n"), eb.fn.min("not_before").as("next")])
          .where("notification_id", "=", notificationId)
          // local-time: pushes waiting for the subscriber's window are not retries (counts.waiting, waitingUntil).
          .where("last_reason", "<>", WINDOW_REASON)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom("notification_retry_causes")
          .selectAll()
          .where("notification_id", "=", notificationId)
          .orderBy("last_at", "desc")
          .orderBy("pushes", "desc")
          .orderBy("host")
          .execute(),
      ]);
      return {
        waiting: Number(waiting.n),
        nextAttemptAt: waiting.next === null ? null : Number(waiting.next),
        causes: rows.map((r) => ({
          host: r.host,
          reason: r.reason,
          status: Number(r.status),
          pushes: Number(r.pushes),
          nextAttemptAt: Number(r.next_attempt_at),
          detail: r.detail,
          firstAt: Number(r.first_at),
          lastAt: Number(r.last_at),
        })),
      };
    },
  };
}
