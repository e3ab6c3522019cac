import type { PushOutcome } from "../push/sender.js";
import type { NewRetry, RangeBatchResult, RetryOutcome } from "../store/delivery-queue-repository.js";

/** The final or next step for one push, from the classifier's verdict. */
export function retryOutcomeOf(outcome: PushOutcome): RetryOutcome {
  switch (outcome.kind) {
    case "ok":
      return { kind: "accepted" };
    case "gone":
      return { kind: "removed" };
    case "retry":
      return { kind: "retry", notBefore: outcome.at, reason: outcome.reason };
    case "fatal":
      return outcome.flag === "vapid_mismatch" ? { kind: "failed", flag: true } : { kind: "failed" };
  }
}

/** Adds up a first-attempt sub-batch: `outcomes[i]` belongs to `subscriptionIds[i]`. */
export function tallyRange(subscriptionIds: readonly number[], outcomes: readonly PushOutcome[]): RangeBatchResult {
  let accepted = 0;
  let failed = 0;
  const gone: number[] = [];
  const flagged: number[] = [];
  const retries: NewRetry[] = [];
  outcomes.forEach((outcome, i) => {
    const id = subscriptionIds[i]!;
    const next = retryOutcomeOf(outcome);
    if (next.kind === "accepted") accepted++;
    else if (next.kind === "removed") gone.push(id);
    else if (next.kind === "retry") retries.push({ subscriptionId: id, attempt: 2, notBefore: next.notBefore, reason: next.reason });
    else {
      failed++;
      if (next.flag === true) flagged.push(id);
    }
  });
  return { accepted, failed, gone, flagged, retries };
}
