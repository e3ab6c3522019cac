import { sql, type Kysely } from "kysely";
import type { Database } from "./database.js";
import { enqueueIfHooked, insertRecipientRows, recipientEvent, type Recipient, type RecipientResult } from "./recipient-outcomes.js";
import type { Schema } from "./schema.js";

/**
 * A marketing push held for the subscriber's local window waits as a `delivery_retries` row whose
 * `last_reason` is this and whose `not_before` is the window's opening: durable, claimed with the
 * same leases and `SKIP LOCKED` as any retry, by whichever worker is up when it comes due. Its
 * first attempt is still to be made (`attempt` 1).
 */
export const WINDOW_REASON = "window";

/** The targets of one sub-batch the local-time gate held back. */
export interface HeldRecipients {
  /** Outside their window: sent at `notBefore`, the next opening in their zone. */
  readonly waiting: readonly { readonly recipient: Recipient; readonly notBefore: number }[];
  /** The notification's TTL would end before their window opens: dropped, never sent late. */
  readonly expired: readonly Recipient[];
}

const INSERT_CHUNK = 500;

/**
 * Records what a sub-batch held, inside its checkpoint's transaction: a waiting row per target
 * (multi-row INSERTs), their recipient rows (`waiting` / `expired`), the counters and the notification's
 * next opening (`waiting_until`, the earliest of its waiting rows).
 */
export async function recordHeld(trx: Kysely<Schema>, notificationId: number, held: HeldRecipients | undefined, now: number): Promise<void> {
  if (held === undefined || (held.waiting.length === 0 && held.expired.length === 0)) return;
  const rows = held.waiting.map(({ recipient, notBefore }) => ({
    notification_id: notificationId,
    subscription_id: recipient.id,
    attempt: 1,
    not_before: notBefore,
    last_reason: WINDOW_REASON,
  }));
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx.insertInto("delivery_retries").values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }
  const results: RecipientResult[] = [
    ...held.waiting.map(({ recipient }) => ({ recipient, outcome: "waiting" as const, reason: WINDOW_REASON })),
    ...held.expired.map((recipient) => ({ recipient, outcome: "expired" as const, reason: "expired" })),
  ];
  await insertRecipientRows(trx, notificationId, results, now);
  await enqueueIfHooked(trx, () => held.expired.map((recipient) => recipientEvent(notificationId, recipient, "expired", "expired")!), now);
  const earliest = held.waiting.reduce((min, w) => Math.min(min, w.notBefore), Number.POSITIVE_INFINITY);
  await trx
    .updateTable("notifications")
    .set((eb) => ({
      waiting: eb("waiting", "+", held.waiting.length),
      expired: eb("expired", "+", held.expired.length),
      ...(held.waiting.length === 0
        ? {}
        : { waiting_until: sql<number>`case when waiting_until is null or waiting_until > ${sql.lit(earliest)} then ${sql.lit(earliest)} else waiting_until end` }),
    }))
    .where("id", "=", notificationId)
    .execute();
}

/**
 * After waiting rows were settled or moved on: the notification's next opening is its earliest waiting row
 * left (null: nothing waits). One indexed probe per send (delivery_retries_window).
 */
export async function refreshWaitingUntil(trx: Kysely<Schema>, notificationId: number): Promise<void> {
  await trx
    .updateTable("notifications")
    .set({
      waiting_until: (eb) =>
        eb
          .selectFrom("delivery_retries")
          .select((e) => e.fn.min<number>("not_before").as("next"))
          .where("notification_id", "=", notificationId)
          .where("last_reason", "=", WINDOW_REASON),
    })
    .where("id", "=", notificationId)
    .execute();
}

/** How many of a notification's targets wait for each opening: when they go, earliest first. */
export interface WaitingOpening {
  readonly at: number;
  readonly count: number;
}

/** A notification's waiting targets grouped by opening (at most `limit` openings, the earliest). */
export async function waitingOpenings(database: Pick<Database, "db">, notificationId: number, limit = 24): Promise<WaitingOpening[]> {
  const rows = await database.db
    .selectFrom("delivery_retries")
    .select((eb) => ["not_before", eb.fn.countAll<number>().as("count")])
    .where("notification_id", "=", notificationId)
    .where("last_reason", "=", WINDOW_REASON)
    .groupBy("not_before")
    .orderBy("not_before")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ at: Number(r.not_before), count: Number(r.count) }));
}
