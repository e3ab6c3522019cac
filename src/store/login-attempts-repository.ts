import { sql } from "kysely";
import type { DatabaseHandle } from "./database.js";

/** One counter after an attempt was counted. */
export interface CountedAttempt {
  /** Attempts in the current window, this one included. */
  readonly attempts: number;
  /** Epoch ms the counter is locked until (0 = not locked). */
  readonly lockedUntil: number;
}

export interface CountAttemptInput {
  readonly now: number;
  /** Attempts older than this are forgotten: the count starts again at 1. */
  readonly windowStart: number;
  /** The attempt that reaches this count locks the counter until `lockUntil`. */
  readonly lockAfter: number;
  readonly lockUntil: number;
}

/**
 * Sign-in attempt counters, in the database so that every process behind a load balancer sees
 * the same count (an in-memory counter per process would multiply the allowance by the number of
 * processes). Keys are `account:<email>` and `address:<ip>`; the policy lives in the server.
 * (The columns keep their first names: `failures` counts attempts, `last_failure_at` the last one.)
 */
export interface LoginAttemptsRepository {
  /**
   * Counts one attempt, BEFORE the password is checked, in one atomic statement, and returns the
   * counter as this attempt left it: concurrent attempts each get a different count, so a caller
   * that verifies only counts up to the limit verifies no more than the limit, across processes.
   * A count whose window passed, or whose lock ran out, starts again at 1.
   */
  countAttempt(key: string, input: CountAttemptInput): Promise<CountedAttempt>;
  /** Takes one attempt back (a successful sign-in must not spend its address's budget). */
  forgiveAttempt(key: string): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createLoginAttemptsRepository(database: DatabaseHandle): LoginAttemptsRepository {
  const { db } = database;
  return {
    async countAttempt(key, { now, windowStart, lockAfter, lockUntil }) {
      // In an upsert's SET, column references are the row's values before the update (both
      // dialects), so `restart` and `next` describe the same old row in every clause.
      const lockedUntil = sql.ref<number>("login_attempts.locked_until");
      const restart = sql<boolean>`(${sql.ref("login_attempts.last_failure_at")} < ${windowStart} or (${lockedUntil} > 0 and ${lockedUntil} <= ${now}))`;
      const next = sql<number>`case when ${restart} then 1 else ${sql.ref("login_attempts.failures")} + 1 end`;
      const row = await db
        .insertInto("login_attempts")
        .values({ key, failures: 1, last_failure_at: now, locked_until: lockAfter <= 1 ? lockUntil : 0 })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            failures: next,
            last_failure_at: now,
            locked_until: sql<number>`case
              when ${lockedUntil} > ${now} then ${lockedUntil}
              when ${next} >= ${lockAfter} then ${lockUntil}
              else 0 end`,
          }),
        )
        .returning(["failures", "locked_until"])
        .executeTakeFirstOrThrow();
      return { attempts: Number(row.failures), lockedUntil: Number(row.locked_until) };
    },

    async forgiveAttempt(key) {
      await db
        .updateTable("login_attempts")
        .set({ failures: sql<number>`${sql.ref("failures")} - 1` })
        .where("key", "=", key)
        .where("failures", ">", 0)
        .execute();
    },

    async reset(key) {
      await db.deleteFrom("login_attempts").where("key", "=", key).execute();
    },
  };
}
