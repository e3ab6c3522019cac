import { sql } from "kysely";
import type { DatabaseHandle } from "./database.js";

export interface LoginAttemptState {
  failures: number;
  lastFailureAt: number;
  lockedUntil: number;
}

/**
 * Sign-in failure counters, in the database so that every process behind a load balancer sees
 * the same count (an in-memory counter per process would multiply the allowance by the number of
 * processes). Keys are `account:<email>` and `address:<ip>`; the policy lives in the server.
 */
export interface LoginAttemptsRepository {
  get(keys: readonly string[]): Promise<Map<string, LoginAttemptState>>;
  /**
   * Adds one failure atomically and returns the new count. A count whose last failure is older
   * than `windowStart` starts again at 1.
   */
  recordFailure(key: string, now: number, windowStart: number): Promise<number>;
  /** Never shortens a lock another process set further out. */
  lockUntil(key: string, until: number): Promise<void>;
  reset(key: string): Promise<void>;
}

export function createLoginAttemptsRepository(database: DatabaseHandle): LoginAttemptsRepository {
  const { db } = database;
  return {
    async get(keys) {
      const map = new Map<string, LoginAttemptState>();
      if (keys.length === 0) return map;
      const rows = await db.selectFrom("login_attempts").selectAll().where("key", "in", [...keys]).execute();
      for (const row of rows) {
        map.set(row.key, {
          failures: Number(row.failures),
          lastFailureAt: Number(row.last_failure_at),
          lockedUntil: Number(row.locked_until),
        });
      }
      return map;
    },

    async recordFailure(key, now, windowStart) {
      const row = await db
        .insertInto("login_attempts")
        .values({ key, failures: 1, last_failure_at: now, locked_until: 0 })
        .onConflict((oc) =>
          oc.column("key").doUpdateSet({
            failures: sql<number>`case when ${sql.ref("login_attempts.last_failure_at")} < ${windowStart} then 1 else ${sql.ref("login_attempts.failures")} + 1 end`,
            last_failure_at: now,
          }),
        )
        .returning("failures")
        .executeTakeFirstOrThrow();
      return Number(row.failures);
    },

    async lockUntil(key, until) {
      await db.updateTable("login_attempts").set({ locked_until: until }).where("key", "=", key).where("locked_until", "<", until).execute();
    },

    async reset(key) {
      await db.deleteFrom("login_attempts").where("key", "=", key).execute();
    },
  };
}
