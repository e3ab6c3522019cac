import type { PushOutcome } from "../push/sender.js";
import { pushServiceHost } from "../store/retry-causes-repository.js";
import type { PushItem } from "./push-batch.js";

/** What became of a push, in the words of a notification's counts (`gone` removes the subscription). */
export const PUSH_OUTCOME_CLASSES = ["accepted", "retry", "failed", "removed"] as const;
export type PushOutcomeClass = (typeof PUSH_OUTCOME_CLASSES)[number];

/**
 * Where delivery reports its numbers; the server's Prometheus registry implements it (a
 * prom-client Counter has this shape). Delivery never imports the metrics library itself.
 */
export interface DeliveryMetrics {
  readonly pushes: { inc(labels: { host: string; outcome: PushOutcomeClass }, value: number): void };
  /** A pooled database connection broke (counted where the pool reports it). */
  readonly databaseErrors: { inc(labels: { kind: "connection" }): void };
}

/** Distinct push-service hosts labelled by name; the rest share `other` (bounds the series a bad endpoint policy could create). */
const MAX_HOSTS = 32;
const OTHER = "other";

interface HostCounts {
  /** `https://host[:port]/`: an endpoint starting with it belongs to the host. */
  readonly prefix: string;
  readonly host: string;
  /** Pushes of the current batch per outcome class, in PUSH_OUTCOME_CLASSES order. */
  readonly counts: [number, number, number, number];
}

const CLASS_INDEX: Record<PushOutcome["kind"], number> = { ok: 0, retry: 1, fatal: 2, gone: 3 };

/**
 * Counts a batch's pushes by host and outcome, then adds each non-zero total to the counter once:
 * a sub-batch of 500 makes a handful of counter calls, not 500. Hosts are recognised by their
 * endpoint prefix (a string comparison, no URL parsing and no allocation per push); there are only
 * a few push services, so the list stays short.
 */
export function createPushCounter(metrics: DeliveryMetrics): (items: readonly PushItem[], outcomes: readonly PushOutcome[]) => void {
  const hosts: HostCounts[] = [];
  const other: HostCounts = { prefix: "", host: OTHER, counts: [0, 0, 0, 0] };

  function hostOf(endpoint: string, last: HostCounts | undefined): HostCounts {
    if (last !== undefined && endpoint.startsWith(last.prefix)) return last;
    for (const entry of hosts) if (endpoint.startsWith(entry.prefix)) return entry;
    const scheme = endpoint.indexOf("://");
    const slash = scheme < 0 ? -1 : endpoint.indexOf("/", scheme + 3);
    if (slash < 0 || hosts.length >= MAX_HOSTS) return other;
    const entry: HostCounts = { prefix: endpoint.slice(0, slash + 1), host: pushServiceHost(endpoint), counts: [0, 0, 0, 0] };
    hosts.push(entry);
    return entry;
  }

  function flush(entry: HostCounts): void {
    for (let c = 0; c < entry.counts.length; c++) {
      const n = entry.counts[c]!;
      if (n === 0) continue;
      metrics.pushes.inc({ host: entry.host, outcome: PUSH_OUTCOME_CLASSES[c]! }, n);
      entry.counts[c] = 0;
    }
  }

  return (items, outcomes) => {
    let last: HostCounts | undefined;
    for (let i = 0; i < outcomes.length; i++) {
      last = hostOf(items[i]!.target.endpoint, last);
      last.counts[CLASS_INDEX[outcomes[i]!.kind]]!++;
    }
    for (const entry of hosts) flush(entry);
    flush(other);
  };
}
