import type { VapidFailure } from "./vapid-verifier.js";

export type HttpProtocol = "h2" | "http/1.1";

/** One push request as the fake saw it (kept for the last `logSize` requests). */
export interface RecordedRequest {
  readonly id: string;
  readonly path: string;
  readonly protocol: HttpProtocol;
  readonly status: number | "hang" | "reset" | "reset-connection";
  readonly ttl: string | undefined;
  readonly urgency: string | undefined;
  readonly topic: string | undefined;
  readonly contentEncoding: string | undefined;
  readonly bodyLength: number;
  readonly vapidFailure?: VapidFailure;
  /** Set when this body was in the decryption sample and decrypted. */
  readonly plaintext?: string;
  /** Set when this body was in the sample and did not decrypt. */
  readonly decryptError?: string;
}

export interface FakePushStats {
  /** Push requests received (admin routes excluded). */
  readonly requests: number;
  /** Requests answered 201/202. */
  readonly accepted: number;
  /** Accepted pushes per subscription id: proves no subscription skipped or sent twice. */
  readonly acceptedById: ReadonlyMap<string, number>;
  /** Ids accepted more than once, and how many extra acceptances they add up to. */
  readonly duplicateIds: number;
  readonly duplicateAcceptances: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly decrypted: { readonly ok: number; readonly failed: number };
  readonly protocols: Readonly<Record<HttpProtocol, number>>;
  /** TLS connections opened by clients (HTTP/2 sessions and HTTP/1.1 sockets). */
  readonly connections: number;
  readonly inFlight: number;
  readonly concurrentPeak: number;
  readonly vapidFailures: Readonly<Partial<Record<VapidFailure, number>>>;
  /** The last requests, oldest first. */
  readonly log: readonly RecordedRequest[];
  /** CPU time (user + system) this process spent since start or reset: capacity = requests / cpuSeconds. */
  readonly cpuSeconds: number;
  /**
   * When the first and the last accepted push since start or reset came in (epoch ms, 0 before
   * any): the rate of senders in other processes, e.g. the benchmark's `sino worker`s.
   */
  readonly firstAcceptedAt: number;
  readonly lastAcceptedAt: number;
}

export function createStatsRecorder(logSize: number) {
  let requests = 0;
  let accepted = 0;
  let acceptedById = new Map<string, number>();
  let duplicateIds = 0;
  let duplicateAcceptances = 0;
  let statuses: Record<string, number> = {};
  let decrypted = { ok: 0, failed: 0 };
  let protocols: Record<HttpProtocol, number> = { h2: 0, "http/1.1": 0 };
  let connections = 0;
  let inFlight = 0;
  let concurrentPeak = 0;
  let vapidFailures: Partial<Record<VapidFailure, number>> = {};
  // A ring buffer: at 10k req/s an array shift per request would dominate.
  let log: (RecordedRequest | undefined)[] = new Array<RecordedRequest | undefined>(logSize);
  let logNext = 0;
  let cpuAtReset = process.cpuUsage();
  let firstAcceptedAt = 0;
  let lastAcceptedAt = 0;

  return {
    started(protocol: HttpProtocol): void {
      requests += 1;
      protocols[protocol] += 1;
      inFlight += 1;
      if (inFlight > concurrentPeak) concurrentPeak = inFlight;
    },
    finished(): void {
      inFlight -= 1;
    },
    connection(): void {
      connections += 1;
    },
    record(entry: RecordedRequest): void {
      const key = String(entry.status);
      statuses[key] = (statuses[key] ?? 0) + 1;
      if (entry.status === 201 || entry.status === 202) {
        accepted += 1;
        lastAcceptedAt = Date.now();
        if (accepted === 1) firstAcceptedAt = lastAcceptedAt;
        const before = acceptedById.get(entry.id) ?? 0;
        acceptedById.set(entry.id, before + 1);
        if (before === 1) duplicateIds += 1;
        if (before >= 1) duplicateAcceptances += 1;
      }
      if (entry.vapidFailure !== undefined) {
        vapidFailures[entry.vapidFailure] = (vapidFailures[entry.vapidFailure] ?? 0) + 1;
      }
      if (entry.plaintext !== undefined) decrypted.ok += 1;
      if (entry.decryptError !== undefined) decrypted.failed += 1;
      if (logSize > 0) {
        log[logNext] = entry;
        logNext = (logNext + 1) % logSize;
      }
    },
    snapshot(): FakePushStats {
      const ordered = [...log.slice(logNext), ...log.slice(0, logNext)].filter((e): e is RecordedRequest => e !== undefined);
      return {
        requests,
        accepted,
        acceptedById: new Map(acceptedById),
        duplicateIds,
        duplicateAcceptances,
        statuses: { ...statuses },
        decrypted: { ...decrypted },
        protocols: { ...protocols },
        connections,
        inFlight,
        concurrentPeak,
        vapidFailures: { ...vapidFailures },
        log: ordered,
        cpuSeconds: cpuSecondsSince(cpuAtReset),
        firstAcceptedAt,
        lastAcceptedAt,
      };
    },
    reset(): void {
      requests = 0;
      accepted = 0;
      acceptedById = new Map();
      duplicateIds = 0;
      duplicateAcceptances = 0;
      statuses = {};
      decrypted = { ok: 0, failed: 0 };
      protocols = { h2: 0, "http/1.1": 0 };
      connections = 0;
      concurrentPeak = inFlight;
      vapidFailures = {};
      log = new Array<RecordedRequest | undefined>(logSize);
      logNext = 0;
      cpuAtReset = process.cpuUsage();
      firstAcceptedAt = 0;
      lastAcceptedAt = 0;
    },
    get accepted(): number {
      return accepted;
    },
  };
}

export type StatsRecorder = ReturnType<typeof createStatsRecorder>;

function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}
