import type { RetentionRepository } from "../store/retention-repository.js";
import type { DeliveryLogger } from "./worker.js";

const DAY_MS = 86_400_000;

export interface RetentionOptions {
  /** SINO_EVENT_RETENTION_DAYS (0: keep). */
  readonly eventDays: number;
  /** SINO_REMOVED_RETENTION_DAYS (0: keep). */
  readonly removedDays: number;
  /** SINO_AUDIT_RETENTION_DAYS (0: keep). */
  readonly auditDays: number;
  /** SINO_CONSENT_RETENTION_DAYS: consent records kept this long after their subscription ends (absent: kept). */
  readonly consentDays?: number;
  /** Rows per transaction (default 500). */
  readonly batch?: number;
  /** Transactions per kind of row per pass (default 40): a backlog is worked off over several passes. */
  readonly maxBatches?: number;
}

export interface RetentionResult {
  /** Events rolled into daily counts (old ones and those of removed subscriptions). */
  readonly events: number;
  /** Results rows of removed subscriptions deleted. */
  readonly recipients: number;
  /** Removal records rolled into quarter-hour counts. */
  readonly removals: number;
  /** Audit entries deleted. */
  readonly audit: number;
  /** Consent records deleted, their retention over. */
  readonly consents: number;
}

export interface Retention {
  /** One bounded pass; safe with several processes (each row is claimed by the DELETE that removes it). */
  perform(): Promise<RetentionResult>;
}

export interface RetentionDeps {
  readonly repository: RetentionRepository;
  readonly clock: () => number;
  readonly logger: DeliveryLogger;
  readonly options: RetentionOptions;
  /** Called before each transaction (the hygiene loop's heartbeat). */
  readonly beat?: () => void;
}

/**
 * Retention (issue 18, LGPD), run by the hygiene task on its hourly look: what the operator no
 * longer needs row by row becomes counts (the charts and results stay the same) and the rows go.
 */
export function createRetention(deps: RetentionDeps): Retention {
  const batch = deps.options.batch ?? 500;
  const maxBatches = deps.options.maxBatches ?? 40;

  async function drain(step: (limit: number) => Promise<number>): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i += 1) {
      deps.beat?.();
      const n = await step(batch);
      total += n;
      if (n < batch) break;
    }
    return total;
  }

  return {
    async perform() {
      const now = deps.clock();
      const { eventDays, removedDays, auditDays } = deps.options;
      const repo = deps.repository;
      let events = 0;
      let recipients = 0;
      let removals = 0;
      let audit = 0;
      if (eventDays > 0) events += await drain((limit) => repo.rollUpEvents(now - eventDays * DAY_MS, limit));
      if (removedDays > 0) {
        const before = now - removedDays * DAY_MS;
        events += await drain((limit) => repo.rollUpRemovedSubscriptionsEvents(before, limit));
        recipients = await drain((limit) => repo.purgeRemovedSubscriptionsRecipients(before, limit));
        removals = await drain((limit) => repo.rollUpRemovals(before, limit));
      }
      if (auditDays > 0) audit = await drain((limit) => repo.purgeAudit(now - auditDays * DAY_MS, limit));
      deps.beat?.();
      const consents = deps.options.consentDays === undefined ? 0 : (await repo.purgeEndedConsents(now, deps.options.consentDays)).records;
      const result = { events, recipients, removals, audit, consents };
      if (events + recipients + removals + audit + consents > 0) deps.logger.info(result, "retention");
      return result;
    },
  };
}
