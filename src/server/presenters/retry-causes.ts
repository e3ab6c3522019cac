import type { NotificationRetries } from "../../shared/api/notifications.js";
import type { NotificationRetries as StoredRetries } from "../../store/retry-causes-repository.js";

const iso = (ms: number) => new Date(ms).toISOString();

/** Why a notification's pushes are retried, by push service host; a status 0 (no answer) shows as null. */
export function presentRetries(retries: StoredRetries): NotificationRetries {
  return {
    waiting: retries.waiting,
    nextAttemptAt: retries.nextAttemptAt === null ? null : iso(retries.nextAttemptAt),
    causes: retries.causes.map((cause) => ({
      host: cause.host,
      reason: cause.reason,
      status: cause.status === 0 ? null : cause.status,
      pushes: cause.pushes,
      firstAt: iso(cause.firstAt),
      lastAt: iso(cause.lastAt),
      nextAttemptAt: iso(cause.nextAttemptAt),
      detail: cause.detail,
    })),
  };
}
