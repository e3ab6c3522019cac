import type { DeliveryTarget } from "../../store/delivery-queue-repository.js";
import { CAP_WINDOW_MS, type DeliveryGatesRepository, type EngagementRules, type EngagementSkips } from "../../store/delivery-gates-repository.js";
import type { Notification } from "../../store/notifications-repository.js";

const DAY_MS = 86_400_000;

/** What the gate lets through of one sub-batch, and what it kept back (undefined: nothing). */
export interface GateResult {
  readonly targets: readonly DeliveryTarget[];
  readonly skips?: EngagementSkips;
}

/**
 * The engagement gate of the range pass (listTargets → engagement gate → local-time gate → push):
 * a marketing send that is not exempt leaves out the sleeping subscriptions (`asleep`) — except,
 * once per sleeping period, for a re-engagement send — and those already at their frequency cap
 * (`limited`). Transactional and exempt sends pass untouched, with no query at all.
 */
export interface EngagementGate {
  /**
   * Where the frequency cap's window of a sub-batch of `send` starts, for the range query to
   * count each target's recent marketing pushes in the same statement (`recentMarketing`);
   * undefined when no cap applies to the send (transactional, exempt, or every cap off).
   */
  capSince(send: Notification, now: number): Promise<number | undefined>;
  /** Splits a sub-batch: what goes on, what is kept back. No query when the targets carry their counts. */
  check(send: Notification, targets: readonly DeliveryTarget[], now: number): Promise<GateResult>;
}

export interface EngagementGateDeps {
  readonly repository: Pick<DeliveryGatesRepository, "recentMarketingCounts">;
  readonly rules: EngagementRules;
  /** Each site's own cap (null: the server's), kept a short while like the sites' origins; `fresh` reads them again. */
  readonly siteCaps?: (fresh: boolean) => Promise<ReadonlyMap<number, number | null>>;
}

/** Whether the engagement rules apply to a send at all: marketing, not an admin's exempt send. */
export function gatesApply(send: Pick<Notification, "category" | "exempt">): boolean {
  return send.category === "marketing" && !send.exempt;
}

/**
 * Sleeping (`adormecida`): no click and no visit since `cutoff`. A re-engagement send may reach it
 * when it was never re-engaged, or not within the last sleeping period (which also covers a
 * subscription that woke up after its last re-engagement and fell asleep again).
 */
export function isAsleep(target: Pick<DeliveryTarget, "lastActiveAt">, cutoff: number): boolean {
  return target.lastActiveAt <= cutoff;
}

export function mayReengage(target: Pick<DeliveryTarget, "reengagedAt">, cutoff: number): boolean {
  return target.reengagedAt === null || target.reengagedAt <= cutoff;
}

/**
 * The gate over one sub-batch: sleeping is decided from the range query's own columns, and the
 * cap from the counts the range query selected beside them (`capSince`): no query of its own.
 * Targets read without their counts (a caller that did not ask) get them in ONE query for the
 * whole sub-batch, only when some target's site has a cap.
 */
export function createEngagementGate(deps: EngagementGateDeps): EngagementGate {
  const { rules } = deps;
  async function capSince(send: Notification, now: number): Promise<number | undefined> {
    if (!gatesApply(send)) return undefined;
    if (rules.frequencyCap > 0) return now - CAP_WINDOW_MS;
    const caps = deps.siteCaps === undefined ? undefined : await deps.siteCaps(false);
    // Every cap off: nothing to count. A site made since the caps were read is caught by check().
    return caps !== undefined && [...caps.values()].some((cap) => cap !== null && cap > 0) ? now - CAP_WINDOW_MS : undefined;
  }
  const check: EngagementGate["check"] = async (send, targets, now) => {
    if (!gatesApply(send) || targets.length === 0) return { targets };
    const sleeping = rules.sleepingDays > 0;
    const cutoff = now - rules.sleepingDays * DAY_MS;
    let awake: DeliveryTarget[] = [];
    const asleep: DeliveryTarget[] = [];
    const reengaging = new Set<number>();
    if (!sleeping) awake = [...targets];
    else {
      for (const target of targets) {
        if (!isAsleep(target, cutoff)) awake.push(target);
        else if (send.reengagement && mayReengage(target, cutoff)) {
          awake.push(target);
          reengaging.add(target.id);
        } else asleep.push(target);
      }
    }
    let caps = deps.siteCaps === undefined ? undefined : await deps.siteCaps(false);
    // A site made since the caps were read: read them again.
    if (caps !== undefined && awake.some((t) => !caps!.has(t.siteId))) caps = await deps.siteCaps!(true);
    const capOf = (target: DeliveryTarget) => caps?.get(target.siteId) ?? rules.frequencyCap;
    const capped = awake.filter((target) => capOf(target) > 0);
    const uncounted = capped.filter((target) => target.recentMarketing === undefined);
    const counts = uncounted.length === 0 ? undefined : await deps.repository.recentMarketingCounts(uncounted.map((t) => t.id), now - CAP_WINDOW_MS);
    const pass: DeliveryTarget[] = [];
    const limited: DeliveryTarget[] = [];
    for (const target of awake) {
      const cap = capOf(target);
      if (cap > 0 && (target.recentMarketing ?? counts?.get(target.id) ?? 0) >= cap) {
        limited.push(target);
        reengaging.delete(target.id);
      } else pass.push(target);
    }
    if (limited.length === 0 && asleep.length === 0 && reengaging.size === 0) return { targets: pass };
    return { targets: pass, skips: { limited, asleep, reengaged: [...reengaging] } };
  };
  return { capSince, check };
}

/** Sites change rarely and a send to many reads them per batch: their caps are kept a minute. */
const SITE_CAPS_TTL_MS = 60_000;

/** The sites' own caps, read through `list` and kept SITE_CAPS_TTL_MS (as the engine keeps the sites' origins). */
export function cachedSiteCaps(list: () => Promise<readonly { id: number; frequencyCap: number | null }[]>, clock: () => number): (fresh: boolean) => Promise<ReadonlyMap<number, number | null>> {
  let cached: { readonly at: number; readonly caps: Promise<ReadonlyMap<number, number | null>> } | undefined;
  return (fresh) => {
    const now = clock();
    if (fresh || cached === undefined || now - cached.at > SITE_CAPS_TTL_MS) {
      const caps = list().then((sites) => new Map(sites.map((site) => [site.id, site.frequencyCap] as const)));
      cached = { at: now, caps };
      // A failed read is not kept: the next batch asks again.
      caps.catch(() => (cached = undefined));
    }
    return cached.caps;
  };
}
