/**
 * Sends to people (issue "Notify one person"), measured inside `npm run bench` on the same engine,
 * database and fake push service as the main send:
 *
 * - creating a `users` send to `--people-ids` (10,000) user ids with `--people-subs` (100,000)
 *   subscriptions in the table, each person on two devices: the time `createNotification` takes (validation,
 *   the people rows, the targets' count, the range jobs), and that send's delivery rate;
 * - publish → first accepted push for a one-person transactional send (p50, p95), with the same
 *   table: the same figure as the main latency line, for the send an app makes most.
 */
import type { Database } from "../src/store/database.js";
import type { DeliveryEngine } from "../src/delivery/engine.js";
import type { NotificationInput } from "../src/delivery/notification-input.js";

export interface PeopleBenchDeps {
  readonly database: Database;
  readonly engine: DeliveryEngine;
  /** Seeds `count` subscriptions from `from`, each identified as `personOf(index)`. */
  readonly seed: (prefix: string, from: number, count: number, personOf: (index: number) => string) => Promise<void>;
  /** Creates a send and resolves with its final state. */
  readonly sendAndWait: (input: NotificationInput) => Promise<{ readonly status: string; readonly counts: Readonly<Record<string, number>> }>;
  /** The first accepted push since the last `reset()` (performance.now()), and how many. */
  readonly timed: { reset(): void; readonly first: number; readonly accepted: number };
  readonly log: (line: string) => void;
}

export interface PeopleBenchOptions {
  readonly subscriptions: number;
  readonly ids: number;
  readonly latencySends: number;
}

export interface PeopleBench {
  readonly subscriptions: number;
  readonly ids: number;
  readonly targets: number;
  readonly createMs: number;
  readonly msgsPerSecond: number;
  readonly latency: { readonly sends: number; readonly p50Ms: number; readonly p95Ms: number } | null;
}

const DEVICES_PER_PERSON = 2;

export async function measurePeopleSends(deps: PeopleBenchDeps, options: PeopleBenchOptions): Promise<PeopleBench> {
  const { database, engine, log } = deps;
  const people = Math.ceil(options.subscriptions / DEVICES_PER_PERSON);
  await database.db.deleteFrom("subscriptions").execute();
  await deps.seed("pp", 0, options.subscriptions, (i) => `pessoa-${i % people}`);

  // Every third id names nobody: a real list mixes people with and without a device.
  const ids = Array.from({ length: options.ids }, (_, i) => (i % 3 === 2 ? `sem-inscricao-${i}` : `pessoa-${i}`));
  const targets = ids.filter((id) => id.startsWith("pessoa-")).length * DEVICES_PER_PERSON;
  const input: NotificationInput = {
    title: "Seu pedido saiu para entrega",
    body: "Acompanhe a entrega pelo aplicativo.",
    url: "https://loja.example.com/pedidos",
    audience: { kind: "people", people: ids.length },
    people: ids.map((id) => ({ id, data: null })),
    category: "transactional",
  };

  deps.timed.reset();
  const started = performance.now();
  const created = await engine.createNotification(input);
  const createMs = performance.now() - started;
  if (created.counts.queued !== targets) throw new Error(`people send: ${created.counts.queued} targets, expected ${targets}`);
  const finished = await waitFor(engine, created.id);
  const seconds = (performance.now() - started) / 1000;
  if (finished.counts.accepted !== targets) throw new Error(`people send: ${JSON.stringify(finished)}`);
  const msgsPerSecond = Math.round(targets / seconds);
  log(
    `people:   a users send to ${ids.length} ids (${targets} subscriptions of ${options.subscriptions} in the table) created in ` +
      `${createMs.toFixed(0)} ms, delivered at ${msgsPerSecond} msgs/s`,
  );

  const latencies: number[] = [];
  for (let i = 0; i < options.latencySends; i++) {
    deps.timed.reset();
    const start = performance.now();
    const result = await deps.sendAndWait({
      title: "Sua consulta é amanhã às 9h",
      audience: { kind: "people", people: 1 },
      people: [{ id: `pessoa-${(i * 7919) % people}`, data: null }],
      category: "transactional",
    });
    if (result.counts["accepted"] !== DEVICES_PER_PERSON || deps.timed.accepted !== DEVICES_PER_PERSON) {
      throw new Error(`one-person send ${i}: ${JSON.stringify(result)}`);
    }
    latencies.push(deps.timed.first - start);
  }
  const latency =
    latencies.length === 0 ? null : { sends: latencies.length, p50Ms: round2(percentile(latencies, 50)), p95Ms: round2(percentile(latencies, 95)) };
  if (latency !== null) {
    log(`people:   publish → first accepted push of a one-person transactional send p50 ${latency.p50Ms} ms, p95 ${latency.p95Ms} ms (${latency.sends} sends; target p95 < 50 ms)`);
  }
  await database.db.deleteFrom("subscriptions").execute();
  return { subscriptions: options.subscriptions, ids: ids.length, targets, createMs: Math.round(createMs), msgsPerSecond, latency };
}

async function waitFor(engine: DeliveryEngine, id: number) {
  for (;;) {
    const send = await engine.getNotification(id);
    if (send !== undefined && (send.status === "completed" || send.status === "failed" || send.status === "cancelled")) return send;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
