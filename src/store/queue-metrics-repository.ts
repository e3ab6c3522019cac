import type { NotificationStatus } from "./schema.js";
import { toCount } from "./count.js";
import type { DatabaseHandle } from "./database.js";

/** What the delivery queue and the notifications look like right now, for the metrics scrape. */
export interface QueueSnapshot {
  /** Sends per status (only the statuses some send has). */
  readonly notificationsByStatus: ReadonlyMap<NotificationStatus, number>;
  /** Range jobs not yet walked to their end (each holds up to one job size of subscriptions). */
  readonly pendingJobs: number;
  /**
   * Since when the oldest pending job waits, in epoch ms: its notification's start (`send_at` for a
   * scheduled one, else its creation); null with no pending job.
   */
  readonly oldestPendingSince: number | null;
  /** Pushes waiting for another attempt. */
  readonly retries: number;
  /** Of those, the ones whose time has come (`not_before` <= now): due but not yet taken. */
  readonly retriesDue: number;
}

export interface QueueMetricsRepository {
  snapshot(now: number): Promise<QueueSnapshot>;
}

/**
 * Five small queries, each answered from an index or a table of notifications (not of pushes): cheap
 * enough for a scrape every 15 s while a large send runs.
 */
export function createQueueMetricsRepository(database: DatabaseHandle): QueueMetricsRepository {
  const { db } = database;
  return {
    async snapshot(now) {
      const [statuses, jobs, oldest, retries, due] = await Promise.all([
        db.selectFrom("notifications").select(["status", (eb) => eb.fn.countAll<number>().as("n")]).groupBy("status").execute(),
        db.selectFrom("delivery_jobs").where("done", "=", 0).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
        // delivery_jobs_claim (done, id): the lowest pending id is the oldest job.
        db
          .selectFrom("delivery_jobs as j")
          .innerJoin("notifications as n", "n.id", "j.notification_id")
          .where("j.done", "=", 0)
          .orderBy("j.id")
          .limit(1)
          .select(["n.created_at", "n.send_at"])
          .executeTakeFirst(),
        db.selectFrom("delivery_retries").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
        db.selectFrom("delivery_retries").where("not_before", "<=", now).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst(),
      ]);
      return {
        notificationsByStatus: new Map(statuses.map((row) => [row.status, toCount(row.n)])),
        pendingJobs: toCount(jobs?.n),
        oldestPendingSince: oldest === undefined ? null : (oldest.send_at ?? oldest.created_at),
        retries: toCount(retries?.n),
        retriesDue: toCount(due?.n),
      };
    },
  };
}
