import type { PushSender } from "../push/sender.js";
import type { VapidKeyRing } from "./vapid-key-ring.js";
import { ptBR } from "../shared/i18n/catalog.js";
import type { HygieneRepository } from "../store/hygiene-repository.js";
import type { LoopObservers } from "./loop-observers.js";
import type { Retention } from "./retention-task.js";
import type { DeliveryLogger } from "./worker.js";
import { createPeriodicTask } from "./periodic-task.js";

const DAY_MS = 86_400_000;

export interface HygieneOptions {
  /** Days without a registration after which a subscription is removed; 0 turns hygiene off. */
  readonly expiryDays: number;
  /** Days before that removal when it gets one warning push. */
  readonly warningDays: number;
  /** How often to look, in ms (default: hourly). */
  readonly intervalMs?: number;
  /** Subscriptions warned or removed per look (a look repeats while there is more). */
  readonly batch?: number;
}

export interface HygieneTask {
  /**
   * One pass: warn what is due for a warning, remove what expired, delete finished notifications' targets
   * (`targets`: rows deleted). Safe with several processes.
   */
  perform(): Promise<HygieneResult>;
  start(): void;
  stop(): Promise<void>;
}

export interface HygieneResult {
  readonly warned: number;
  readonly removed: number;
  readonly targets: number;
}

export interface HygieneTaskDeps {
  readonly repository: HygieneRepository;
  readonly sender: Pick<PushSender, "send">;
  /** The signers of the sites' own keys (a warning is signed with its subscription's key); absent: the sender's. */
  readonly keyRing?: Pick<VapidKeyRing, "signers">;
  readonly clock: () => number;
  readonly logger: DeliveryLogger;
  readonly options: HygieneOptions;
  /** Beats `hygiene` at each look and batch; database outages are logged once. */
  readonly observers?: LoopObservers;
  /** Retention (retention-task.ts): run after each pass, on the same hourly look. */
  readonly retention?: Pick<Retention, "perform">;
}

/** The warning's payload, in the shape the service worker reads (title, body, tag). */
export function hygieneWarningPayload(): string {
  // A fixed tag: a second warning (after the browser came back and went quiet again) replaces the
  // first rather than stacking.
  return JSON.stringify({ title: catalogText("hygiene.warningTitle"), body: catalogText("hygiene.warningBody"), tag: "sino-expiry-warning" });
}

/** The worker has no i18next instance; it reads its two texts straight from the catalog. */
function catalogText(key: `hygiene.${keyof typeof ptBR.hygiene}`): string {
  const name = key.slice("hygiene.".length) as keyof typeof ptBR.hygiene;
  return ptBR.hygiene[name];
}

/**
 * Subscription hygiene, as ntfy does it: a browser that has not come back for a long time is likely
 * gone (push services do not always say so), so it gets ONE warning push — visiting the site
 * re-registers and resets the clock — and is removed at the expiry. Runs in every worker process:
 * the warning is claimed by a conditional UPDATE and a removal deletes each row once.
 */
export function createHygieneTask(deps: HygieneTaskDeps): HygieneTask {
  const batch = deps.options.batch ?? 200;
  const intervalMs = deps.options.intervalMs ?? 3_600_000;

  /** Finished segment sends' notification_targets rows, in chunks of `batch`: runs even with expiry off. */
  async function clearTargets(): Promise<number> {
    let targets = 0;
    for (;;) {
      beat();
      const n = await deps.repository.clearFinishedTargets(batch);
      targets += n;
      if (n === 0) break;
    }
    if (targets > 0) deps.logger.info({ targets }, "finished sends' targets deleted");
    return targets;
  }

  async function perform(): Promise<HygieneResult> {
    const result = await performHygiene();
    await deps.retention?.perform();
    return result;
  }

  async function performHygiene(): Promise<HygieneResult> {
    const targets = await clearTargets();
    const { expiryDays, warningDays } = deps.options;
    if (expiryDays <= 0) return { warned: 0, removed: 0, targets };
    const now = deps.clock();
    const expireBefore = now - expiryDays * DAY_MS;
    const warnBefore = now - (expiryDays - warningDays) * DAY_MS;
    let warned = 0;
    let removed = 0;
    for (;;) {
      beat();
      const n = await deps.repository.removeExpired(expireBefore, now, batch);
      removed += n;
      if (n < batch) break;
    }
    if (warningDays > 0) {
      const payload = hygieneWarningPayload();
      for (;;) {
        beat();
        const targets = await deps.repository.claimWarnings(warnBefore, expireBefore, now, batch);
        // At most once: the claim is stored before the push, so a crash here loses a warning
        // rather than sending two.
        const signers = await deps.keyRing?.signers(targets.map((t) => t.vapidKeyId));
        const outcomes = await Promise.all(
          targets.map((t) => {
            const vapid = signers?.get(t.vapidKeyId);
            // A key row that is gone cannot sign: no warning (the subscription expires as usual).
            if (signers !== undefined && vapid === undefined) return Promise.resolve({ kind: "skipped" as const });
            return deps.sender.send({ endpoint: t.endpoint, keys: { p256dh: t.p256dh, auth: t.auth } }, payload, { ttl: 7 * 86_400, urgency: "low" }, vapid);
          }),
        );
        warned += outcomes.filter((o) => o.kind === "ok").length;
        if (targets.length < batch) break;
      }
    }
    if (warned > 0 || removed > 0) deps.logger.info({ warned, removed }, "subscription hygiene");
    return { warned, removed, targets };
  }

  function beat(): void {
    deps.observers?.heartbeat?.beat("hygiene");
  }

  const task = createPeriodicTask({ component: "hygiene", perform, intervalMs, failureMessage: "subscription hygiene failed; retrying later", logger: deps.logger, observers: deps.observers });
  return { perform, start: task.start, stop: task.stop };
}
