import type { PushOutcome } from "../push/sender.js";
import type { DeliveryTarget, FailedRecipient, NewRetry, RangeBatchResult, RetryOutcome } from "../store/delivery-queue-repository.js";
import { pushServiceHost } from "../store/retry-causes-repository.js";

/** The final or next step for one push, from the classifier's verdict. */
export function retryOutcomeOf(outcome: PushOutcome): RetryOutcome {
  switch (outcome.kind) {
    case "ok":
      return { kind: "accepted" };
    case "gone":
      return { kind: "removed" };
    case "retry":
      return { kind: "retry", notBefore: outcome.at, reason: outcome.reason, status: outcome.status ?? 0, detail: outcome.detail };
    case "fatal":
      return outcome.flag === "vapid_mismatch" ? { kind: "failed", reason: outcome.reason, flag: true } : { kind: "failed", reason: outcome.reason };
  }
}

/**
 * Sorts a first-attempt sub-batch by outcome: `outcomes[i]` belongs to `targets[i]`. The fan-out's
 * hot path: accepted and gone targets are kept as they are (no copy), only the rarer failures and
 * retries get an object of their own.
 */
export function tallyRange(targets: readonly DeliveryTarget[], outcomes: readonly PushOutcome[]): RangeBatchResult {
  const accepted: DeliveryTarget[] = [];
  const failed: FailedRecipient[] = [];
  const gone: DeliveryTarget[] = [];
  const flagged: number[] = [];
  const retries: NewRetry[] = [];
  for (let i = 0; i < outcomes.length; i++) {
    const outcome = outcomes[i]!;
    const target = targets[i]!;
    switch (outcome.kind) {
      case "ok":
        accepted.push(target);
        break;
      case "gone":
        gone.push(target);
        break;
      case "retry":
        // The rare path: only a retry pays for parsing its endpoint's host.
        retries.push({ recipient: target, attempt: 2, notBefore: outcome.at, reason: outcome.reason, host: pushServiceHost(target.endpoint), status: outcome.status ?? 0, detail: outcome.detail });
        break;
      case "fatal":
        failed.push({ recipient: target, reason: outcome.reason });
        if (outcome.flag === "vapid_mismatch") flagged.push(target.id);
    }
  }
  return { accepted, failed, gone, flagged, retries };
}
