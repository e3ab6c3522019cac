/**
 * `npm run bench -- [--subs 20000] [--db sqlite|postgres] [--webpush-inflight 200]
 *   [--decrypt-sample 100] [--ceiling-ms 3000] [--no-webpush] [--no-ceiling] [--no-floor]
 *   [--latency-sends 20] [--registrations 5000] [--registration-connections 50] [--no-registrations]
 *   [--ingestion-subs 5000] [--no-ingestion]
 *   [--workers 0] [--rounds 3] [--people-subs 100000] [--people-ids 10000] [--no-people] [--no-webhooks]
 *   [--segment-count-subs 1000000] [--no-segments]
 *   [--warm-up min(subs, 20000)] [--profile main.cpuprofile]`
 * `npm run bench -- --soak [--subs 200000] [--db sqlite|postgres]`: the soak alone (bench/soak.ts).
 *
 * How fast one send reaches N subscribers, against what the machine allows. Seeds N subscriptions
 * with real P-256 keys (derived with `subscriberKeysFor`, so the fake can decrypt a sample)
 * pointing at the fake push service in its own process (HTTP/2, TLS, VAPID checked, 1 body in
 * `--decrypt-sample` decrypted), into a fresh
 * SQLite file (or a fresh PostgreSQL schema), then sends ONE ~1 KB notification through the real
 * path: `createNotification` (send + range jobs in one transaction) → the engine's lanes (claim, stream
 * sub-batches, encrypt on every core, HTTP/2) → the fake. Seeding is not timed.
 *
 * Then, in the same run: the same N through the `web-push` library (`sendNotification`, 200 in
 * flight, https.Agent trusting the fake's CA) and the encryption-only ceiling of every core
 * (`measureEncryptionCeiling`). Prints the ratios and ends with one JSON line of every figure.
 *
 * Rounds: Sino, the ceiling and web-push are measured back to back `--rounds` times (default 3),
 * and each ratio printed is the median of the rounds' own ratios. The machine's speed drifts within
 * minutes, so two figures measured a minute apart are not comparable, while three back-to-back
 * figures are; the median keeps one round that landed in a slow stretch from deciding the result.
 *
 * Last, the HTTP/2 floor (http2-floor.ts): CPU per request of a bare node:http2 client and server
 * (in their own processes) and of one encryption on one thread. Sino, its encryption threads and
 * the fake share the same cores, so each push costs at least E + C + S of CPU where the ceiling
 * costs E: Sino / ceiling ≤ E/(E+C+S) on this machine, printed as `bound:` beside the ratio.
 *
 * CPU efficiency (what the push service does not pay for): the ceiling's CPU per encryption over
 * Sino's CPU per accepted push, every thread of each process counted, the fake's not.
 *
 * Sends to people (bench/people.ts): creating a `users` send to 10,000 ids with 100,000
 * subscriptions in the table, its delivery rate, and publish → first accepted push of a one-person
 * transactional send.
 *
 * Webhooks (bench/webhooks.ts, run as a child process with the same --subs, --db and --rounds):
 * the send's msgs/s with a webhook subscribed to `recipient.accepted` beside the same send without
 * one, and the webhook deliveries per second; its JSON is this run's `webhooks`.
 *
 * Segments (bench/segments.ts, a child process): the count of a 4-condition expression over
 * `--segment-count-subs` (1,000,000) subscriptions with 5 trusted tags each, median of 5, on SQLite
 * and PostgreSQL (plans on stderr), and a segment send's msgs/s over an all-audience send's with
 * `--subs` subscriptions in the table; its JSON is this run's `segments`.
 *
 * Also: publish → first accepted push over `--latency-sends` single-subscriber sends (p50, p95);
 * subscription registration throughput on SQLite and PostgreSQL (registration.ts, autocannon in
 * its own process); ingestion (ingestion.ts): service-worker reports per second on SQLite and
 * PostgreSQL against a running server, and the bare Fastify floor for the registration body, with
 * the ratios events / fan-out and registrations / floor (`ingestion` in the JSON); and with `--workers N` (PostgreSQL) the send is delivered by N `sino worker`
 * processes instead of this process's lanes (msgs/s from the fake's timestamps, peak RSS each).
 *
 * Warm-up, the same for both senders: `--warm-up` pushes before timing (default as many as the
 * timed send, at most 20,000), so neither pays for JIT, a heap still growing, TLS handshakes or
 * (Sino) starting its encryption threads inside the measured window — a running server has all of
 * them ready. With only a few hundred, the first timed send cost ~20% more CPU per push than the
 * next ones. Sino's warm-up subscriptions are deleted before the timed send, so it targets exactly
 * the N seeded ones.
 */
import { Agent } from "node:https";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import webpush from "web-push";
import { createDeliveryEngine } from "../src/delivery/engine.js";
import { createMetrics } from "../src/server/metrics/metrics.js";
import { encryptedLength } from "../src/push/encrypt.js";
import { createPushTransport, isTransportFailure, type PushTransport } from "../src/push/transport.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { createDatabase, type Database } from "../src/store/database.js";
import { migrateToLatest } from "../src/store/migrate.js";
import type { Notification } from "../src/store/notifications-repository.js";
import { subscriberKeysFor } from "../test/support/fake-push/keys.js";
import { spawnFakePushService } from "../test/support/fake-push/remote.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";
import { measureEncryptionCeiling, type EncryptionCeiling } from "./encryption-ceiling.js";
import { ceilingRatioBound, describeFloor, measureEncryptUsPerMessage, measureHttp2Floor } from "./http2-floor.js";
import { createRepositories } from "../src/store/repositories.js";
import { startAllocationSampler, startMainThreadProfiler, writeProfile } from "./main-thread-profile.js";
import { measureRegistrations, type RegistrationBench } from "./registration.js";
import { measureEvents, measureFloor, type EventsBench, type FloorBench } from "./ingestion.js";
import { measurePeopleSends, type PeopleBench } from "./people.js";
import type { NotificationInput } from "../src/delivery/notification-input.js";
import { buildServer, spawnWorkerProcesses } from "./worker-processes.js";
import { postgresCpuMeter, workerApplicationName } from "./postgres-cpu.js";

const { values } = parseArgs({
  options: {
    subs: { type: "string", default: "20000" },
    db: { type: "string", default: "sqlite" },
    "webpush-inflight": { type: "string", default: "200" },
    "decrypt-sample": { type: "string", default: "100" },
    "ceiling-ms": { type: "string", default: "3000" },
    "no-webpush": { type: "boolean", default: false },
    "no-ceiling": { type: "boolean", default: false },
    "no-floor": { type: "boolean", default: false },
    "keep-db": { type: "boolean", default: false },
    "latency-sends": { type: "string", default: "20" },
    registrations: { type: "string", default: "5000" },
    "registration-connections": { type: "string", default: "50" },
    "no-registrations": { type: "boolean", default: false },
    // Ingestion (bench/ingestion.ts): service-worker reports from this many subscriptions (3 each),
    // beside the registrations above and the bare Fastify floor; skip with --no-ingestion.
    "ingestion-subs": { type: "string", default: "5000" },
    "no-ingestion": { type: "boolean", default: false },
    // Sends to people (bench/people.ts): a users send to this many ids with this many subscriptions
    // in the table, then --latency-sends one-person transactional sends.
    "people-subs": { type: "string", default: "100000" },
    "people-ids": { type: "string", default: "10000" },
    "no-people": { type: "boolean", default: false },
    // Outbound webhooks beside a send (bench/webhooks.ts, in its own process): skip with this.
    "no-webhooks": { type: "boolean", default: false },
    // Segments (bench/segments.ts, in its own process): the count's table size; skip with --no-segments.
    "segment-count-subs": { type: "string", default: "1000000" },
    "no-segments": { type: "boolean", default: false },
    // The delivery rules (bench/delivery-gates.ts, in its own process); skip with --no-delivery-gates.
    "no-delivery-gates": { type: "boolean", default: false },
    // 0: the engine's lanes in this process, as `sino start` runs them. N (PostgreSQL): N `sino
    // worker` processes deliver instead, and this process only creates the sends.
    workers: { type: "string", default: "0" },
    // Sino, the ceiling and web-push measured back to back this many times; ratios are the medians
    // of the rounds' own. Default 3 (1 with --workers: a million-subscription send takes minutes).
    rounds: { type: "string" },
    // Pushes each sender makes before anything is timed; default: as many as the timed send, at
    // most 20,000 (a running server is warm: JIT, heap grown, connections open).
    "warm-up": { type: "string" },
    // A .cpuprofile of the main thread during one extra, untimed send, summarised on stderr, and
    // the main thread's allocations over another (not with --workers: the sends run elsewhere).
    profile: { type: "string" },
    // Engine knobs, for tuning runs only; unset = the engine's defaults, as `sino start` runs it.
    lanes: { type: "string" },
    batch: { type: "string" },
    threads: { type: "string" },
    inflight: { type: "string" },
    // The soak (bench/soak.ts, its own process, nothing else runs): a --subs send (default 200,000)
    // on a compiled `sino start` while its reports arrive at the fan-out's rate.
    soak: { type: "boolean", default: false },
    reporters: { type: "string" },
    "clicks-every": { type: "string" },
  },
});
if (values.soak) process.exit(await runSoak(process.argv.slice(2)));
const N = Number(values.subs);
const dialect = values.db;
if (!Number.isInteger(N) || N < 1) throw new Error("--subs must be a positive integer");
if (dialect !== "sqlite" && dialect !== "postgres") throw new Error("--db must be sqlite or postgres");
const WORKERS = Number(values.workers);
if (!Number.isInteger(WORKERS) || WORKERS < 0) throw new Error("--workers must be 0 or more");
if (WORKERS > 0 && dialect !== "postgres") throw new Error("--workers needs --db postgres (sino worker shares sends through PostgreSQL)");
const ROUNDS = values.rounds === undefined ? (WORKERS > 0 ? 1 : 3) : Number(values.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("--rounds must be a positive integer");
const LATENCY_SENDS = WORKERS > 0 ? 0 : Number(values["latency-sends"]);
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const WEBPUSH_IN_FLIGHT = Number(values["webpush-inflight"]);
const WARM_UP = values["warm-up"] === undefined ? Math.min(N, 20_000) : Number(values["warm-up"]);
if (!Number.isInteger(WARM_UP) || WARM_UP < 1) throw new Error("--warm-up must be a positive integer");
const KEY_SEED = "sino-bench";
const PREFIX = "b";

const log = (line: string): void => void process.stderr.write(`${line}\n`);
const mb = (bytes: number): number => Math.round(bytes / 1e5) / 10;

// A ~1 KB notification, as the Painel would store it (title, body, icon, link).
const NOTIFICATION = {
  title: "Promoção de inverno: 30% de desconto",
  body: "Aproveite: ".concat("ofertas para assinantes do Sino. ".repeat(27)).trim(),
  icon: "https://sino.example.com/icons/sino-192.png",
  url: "https://sino.example.com/ofertas/inverno?utm_source=push",
};
/** The plaintext the service worker gets (the engine adds the tag), for the ceiling and the floor. */
const PAYLOAD_BYTES = Buffer.byteLength(JSON.stringify({ ...NOTIFICATION, tag: "sino-1" }));

/** Runs bench/soak.ts with the same arguments, its output shown as it goes; resolves with its exit code. */
async function runSoak(args: readonly string[]): Promise<number> {
  const script = fileURLToPath(new URL("./soak.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: "inherit", env: process.env });
  return new Promise<number>((resolve) => child.once("exit", (code) => resolve(code ?? 1)));
}

// ── the fake push service, in its own process ────────────────────────────────────────────────
const fake = await spawnFakePushService({ seed: KEY_SEED, decryptSample: Number(values["decrypt-sample"]), logSize: 16 });
const tls = loadTestTls();

// ── a fresh database ─────────────────────────────────────────────────────────────────────────
interface BenchDatabase {
  readonly database: Database;
  /** PostgreSQL: the bench's own schema, for `sino worker` processes. */
  readonly schema?: string;
  drop(): Promise<void>;
}

async function freshDatabase(): Promise<BenchDatabase> {
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), "sino-bench-"));
    const database = createDatabase({ url: join(dir, "sino.db") });
    return {
      database,
      async drop() {
        await database.destroy();
        if (!values["keep-db"]) rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const url = POSTGRES_URL;
  const schema = `sino_bench_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create schema ${schema}`);
  const database = createDatabase({ url, schema });
  return {
    database,
    schema,
    async drop() {
      await database.destroy();
      if (!values["keep-db"]) await admin(`drop schema if exists ${schema} cascade`);
    },
  };
}

/**
 * Bulk seeding, not timed: multi-row inserts of 1,000 rows (7 parameters each, under both
 * databases' parameter limits), 50,000 rows per transaction so a million rows neither holds one
 * giant transaction nor pays a commit per row.
 */
async function seed(database: Database, prefix: string, from: number, count: number, personOf?: (index: number) => string): Promise<void> {
  const now = Date.now();
  const ROWS = 1000;
  const PER_TRANSACTION = 50_000;
  for (let t = from; t < from + count; t += PER_TRANSACTION) {
    const end = Math.min(from + count, t + PER_TRANSACTION);
    await database.db.transaction().execute(async (trx) => {
      for (let i = t; i < end; i += ROWS) {
        const rows = [];
        for (let j = i; j < Math.min(end, i + ROWS); j++) {
          const id = `${prefix}${j}`;
          const keys = subscriberKeysFor(KEY_SEED, id);
          rows.push({
            endpoint: fake.endpointFor(id),
            p256dh: keys.p256dh.toString("base64url"),
            auth: keys.auth.toString("base64url"),
            user_agent: null,
            created_at: now,
            updated_at: now,
            last_seen_at: now,
            ...(personOf === undefined ? {} : { person_id: personOf(j), identified_at: now }),
          });
        }
        await trx.insertInto("subscriptions").values(rows).execute();
      }
    });
  }
}

/** Records when the first and the last push accepted by the service came back (a thin decorator). */
function timedTransport(inner: PushTransport) {
  let first = 0;
  let last = 0;
  let accepted = 0;
  const transport: PushTransport = {
    async send(request) {
      const result = await inner.send(request);
      if (!isTransportFailure(result) && (result.status === 201 || result.status === 202)) {
        const now = performance.now();
        if (accepted === 0) first = now;
        last = now;
        accepted++;
      }
      return result;
    },
    stats: () => inner.stats(),
    close: () => inner.close(),
  };
  return {
    transport,
    reset() {
      first = 0;
      last = 0;
      accepted = 0;
    },
    get first() {
      return first;
    },
    get last() {
      return last;
    },
    get accepted() {
      return accepted;
    },
  };
}

/**
 * CPU milliseconds (user + system) of this process's threads by kind, from Linux's per-thread
 * accounting (/proc/self/task/<tid>/stat, 10 ms ticks; thread names as Node 24 sets them):
 * the main thread (database, HTTP/2, bookkeeping), the worker threads (encryption), V8's helper
 * threads (GC, compilation) and libuv's pool. Empty elsewhere.
 */
function threadCpuMs(): Map<string, number> {
  const byKind = new Map<string, number>();
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      try {
        const kind = threadKind(readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim());
        const fields = readFileSync(`/proc/self/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
        byKind.set(kind, (byKind.get(kind) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        // the thread ended between the listing and the read
      }
    }
  } catch {
    // not Linux
  }
  return byKind;
}

function threadKind(name: string): string {
  if (name === "MainThread") return "main";
  if (name === "WorkerThread") return "workers";
  if (name.startsWith("V8")) return "v8";
  if (name.startsWith("libuv")) return "libuv";
  return "other";
}

function cpuDelta(before: Map<string, number>, after: Map<string, number>): Record<string, number> {
  const delta: Record<string, number> = {};
  for (const [kind, ms] of after) delta[kind] = ms - (before.get(kind) ?? 0);
  return delta;
}

/** Samples this process's RSS every 100 ms between start() and stop(). */
function rssSampler() {
  let peak = 0;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    peak = Math.max(peak, process.memoryUsage.rss());
  };
  return {
    start() {
      peak = 0;
      sample();
      timer = setInterval(sample, 100);
    },
    stop(): number {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

/** Every seeded id accepted exactly once, and nothing else, by the fake's per-id count. */
async function verifyExactlyOnce(expected: number): Promise<{
  accepted: number;
  distinct: number;
  duplicates: number;
  missing: number;
  unexpected: number;
  decrypted: { ok: number; failed: number };
  concurrentPeak: number;
  cpuSeconds: number;
  firstAcceptedAt: number;
  lastAcceptedAt: number;
}> {
  const stats = await fake.stats({ byId: true });
  const byId = stats.acceptedById ?? {};
  let missing = 0;
  let duplicates = 0;
  for (let i = 0; i < expected; i++) {
    const count = byId[`${PREFIX}${i}`] ?? 0;
    if (count === 0) missing++;
    else if (count > 1) duplicates += count - 1;
  }
  const distinct = Object.keys(byId).length;
  return { accepted: stats.accepted, distinct, duplicates, missing, unexpected: distinct - (expected - missing),
    decrypted: stats.decrypted,
    concurrentPeak: stats.concurrentPeak,
    cpuSeconds: Math.round(stats.cpuSeconds * 100) / 100,
    firstAcceptedAt: stats.firstAcceptedAt,
    lastAcceptedAt: stats.lastAcceptedAt,
  };
}

/**
 * `sino worker` processes on the bench's schema, delivering to the fake with the bench's VAPID keys,
 * compiled as production runs them (bench/worker-processes.ts); one that exits early fails the run.
 */
async function spawnWorkers(count: number, schema: string, keys: { publicKey: string; privateKey: string }) {
  buildServer(log);
  const env = {
    ...process.env,
    DATABASE_URL: POSTGRES_URL,
    SINO_DATABASE_SCHEMA: schema,
    SINO_VAPID_PUBLIC_KEY: keys.publicKey,
    SINO_VAPID_PRIVATE_KEY: keys.privateKey,
    SINO_VAPID_SUBJECT: "mailto:bench@sino.example.com",
    SINO_PUSH_ALLOWED_HOSTS: "127.0.0.1",
    SINO_PUSH_ALLOW_PRIVATE: "true",
    SINO_PUSH_CA_FILE: tls.caPath,
    SINO_LOG_LEVEL: "warn",
    // A bench runs at any hour: its marketing send is not held for the subscribers' local window
    // (the local-time gate still runs, every target open).
    SINO_SEND_WINDOW: "00:00-00:00",
    // Names the workers' PostgreSQL backends, so their CPU can be read (pg_stat_activity + /proc).
    PGAPPNAME: workerApplicationName(schema),
    // As the test setup does for the whole test database: catalog queries on a busy shared cluster
    // may get parallel plans whose workers do not see a schema created a moment earlier (3F000).
    PGOPTIONS: "-c max_parallel_workers_per_gather=0",
  };
  return spawnWorkerProcesses(count, env, (pid, code) => {
    log(`sino worker ${pid} exited (${code}) during the run`);
    fake.process.kill("SIGTERM");
    process.exit(1);
  });
}

/** Nearest-rank percentile of `values` (sorted here). */
function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

// ── 1. Sino ──────────────────────────────────────────────────────────────────────────────────
const { database, drop, schema } = await freshDatabase();
await migrateToLatest(database);

const vapidKeys = generateVapidKeys();
const timed = timedTransport(
  createPushTransport({
    policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
    ca: tls.ca,
    ...(values.inflight === undefined ? {} : { maxInFlightPerOrigin: Number(values.inflight) }),
  }),
);
// The engine as `sino start` builds it, with its default options (lanes, batch, threads = cores)
// and its metrics (pushes counted per sub-batch by host and outcome).
const engine = createDeliveryEngine({
  metrics: createMetrics(),
  repositories: createRepositories(database),
  transport: timed.transport,
  vapid: createVapidSigner({ keys: vapidKeys, subject: "mailto:bench@sino.example.com" }),
  options: {
    ...(values.lanes === undefined ? {} : { lanes: Number(values.lanes) }),
    ...(values.batch === undefined ? {} : { batchSize: Number(values.batch) }),
    ...(values.threads === undefined ? {} : { encryptionThreads: Number(values.threads) }),
  },
});
// In --workers mode the engine here only stores sends; `sino worker` processes deliver them.
const workers = WORKERS > 0 ? await spawnWorkers(WORKERS, schema!, vapidKeys) : undefined;
const postgresCpu = workers === undefined ? undefined : postgresCpuMeter(POSTGRES_URL, workerApplicationName(schema!));
if (workers === undefined) engine.start();

interface Finished {
  readonly id: number;
  readonly status: string;
  readonly counts: Readonly<Record<string, number>>;
}

/**
 * Creates the send and resolves when the engine reports it finished (progress events, no polling).
 * The workers of --workers mode are other processes: there the send's row is polled instead.
 */
async function sendAndWait(input: NotificationInput = NOTIFICATION): Promise<{ finished: Promise<Finished> }> {
  if (workers !== undefined) {
    const send = await engine.createNotification(input);
    const finished = (async () => {
      for (;;) {
        const now = await engine.getNotification(send.id);
        if (now !== undefined && (now.status === "completed" || now.status === "failed" || now.status === "cancelled")) {
          return { id: now.id, status: now.status, counts: { ...now.counts } };
        }
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    return { finished };
  }
  let resolve: (value: Finished) => void = () => undefined;
  const finished = new Promise<Finished>((r) => (resolve = r));
  const send = await engine.createNotification(input);
  const done = (s: Notification) => {
    if (s.status === "completed" || s.status === "failed" || s.status === "cancelled") {
      off();
      resolve({ id: s.id, status: s.status, counts: { ...s.counts } });
    }
  };
  const off = engine.onProgress(send.id, done);
  done(send); // already finished (e.g. nobody to send to)
  // The last checkpoint may have been published before we listened: read it once more.
  const now = await engine.getNotification(send.id);
  if (now !== undefined) done(now);
  return { finished };
}

// Warm-up: a send to WARM_UP throw-away subscriptions, which are then deleted, so the timed send
// targets exactly the N seeded after them.
await seed(database, "w", 0, WARM_UP);
{
  const warm = await (await sendAndWait()).finished;
  if (warm.counts["accepted"] !== WARM_UP) throw new Error(`warm-up: ${JSON.stringify(warm)}`);
  await database.db.deleteFrom("subscriptions").execute();
}

// Publish → first accepted push: LATENCY_SENDS sends, one after another, to a single subscriber.
// From the call that stores the send to the push service's 201 for it.
const latenciesMs: number[] = [];
if (LATENCY_SENDS > 0) {
  await seed(database, "l", 0, 1);
  for (let i = 0; i < LATENCY_SENDS; i++) {
    timed.reset();
    const started = performance.now();
    const result = await (await sendAndWait()).finished;
    if (result.counts["accepted"] !== 1 || timed.accepted !== 1) throw new Error(`latency send ${i}: ${JSON.stringify(result)}`);
    latenciesMs.push(timed.first - started);
  }
  await database.db.deleteFrom("subscriptions").execute();
  log(
    `latency:  publish → first accepted push p50 ${percentile(latenciesMs, 50).toFixed(1)} ms, ` +
      `p95 ${percentile(latenciesMs, 95).toFixed(1)} ms (${LATENCY_SENDS} single-subscriber sends; target < 50 ms)`,
  );
}

const seedStarted = performance.now();
await seed(database, PREFIX, 0, N);
const seedSeconds = (performance.now() - seedStarted) / 1000;
log(`seeded ${N} subscriptions (${dialect}) in ${seedSeconds.toFixed(1)} s`);

/** One timed send of Sino to the N seeded subscriptions, checked at the fake. */
interface SinoRound {
  readonly rate: number;
  readonly accepted: number;
  readonly firstMs: number;
  readonly lastMs: number;
  readonly completedMs: number;
  readonly result: Finished;
  readonly check: Awaited<ReturnType<typeof verifyExactlyOnce>>;
  readonly exactlyOnce: boolean;
  readonly cpuMs: number;
  readonly cpuPerPushUs: number;
  readonly perPushByThread: Readonly<Record<string, number>>;
  readonly fakeCpuPerPushUs: number;
  readonly baselineRss: number;
  readonly peakRss: number;
  readonly maxRss: number;
  readonly workersPeakRssMB: number[] | undefined;
  /** --workers: what the workers' PostgreSQL backends spent, and each worker's RSS over the send. */
  readonly postgres: { readonly cpuMs: number; readonly backends: number } | undefined;
  readonly workersRss: Array<{ atMs: number; rssMB: number[] }> | undefined;
}

async function timeSino(): Promise<SinoRound> {
  await fake.reset();
  timed.reset();
  globalThis.gc?.();
  const rss = rssSampler();
  const baselineRss = process.memoryUsage.rss();
  rss.start();
  const cpuBefore = process.cpuUsage();
  const threadsBefore = threadCpuMs();
  const workersCpuBefore = workers?.cpuMs() ?? 0;
  await postgresCpu?.start();
  const workersRss = workers?.sampleRss(1000);
  const startedAt = Date.now();
  const started = performance.now();
  const { finished } = await sendAndWait();
  const result = await finished;
  const completedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const threadsMs = cpuDelta(threadsBefore, threadCpuMs());
  const workersCpuMs = workers === undefined ? 0 : workers.cpuMs() - workersCpuBefore;
  const postgres = await postgresCpu?.stop();
  const workersRssTimeline = workersRss?.stop();
  const peakRss = rss.stop();
  const check = await verifyExactlyOnce(N);
  // In this process the transport times the accepted pushes; `sino worker`s are timed by the fake.
  const accepted = workers === undefined ? timed.accepted : check.accepted;
  const firstMs = workers === undefined ? timed.first - started : check.firstAcceptedAt - startedAt;
  const lastMs = workers === undefined ? timed.last - started : check.lastAcceptedAt - startedAt;
  // Sino's CPU: this whole process (every thread), or the worker processes in --workers mode.
  const cpuMs = workers === undefined ? (cpu.user + cpu.system) / 1000 : workersCpuMs;
  // CPU per accepted push: the whole process (every thread), by kind of thread, and the fake.
  const perPushUs = (ms: number): number => Math.round((ms * 1000) / Math.max(1, accepted));
  const perPushByThread: Record<string, number> = {};
  if (workers === undefined) for (const [kind, ms] of Object.entries(threadsMs)) perPushByThread[kind] = perPushUs(ms);
  return {
    rate: Math.round(accepted / (lastMs / 1000)),
    accepted,
    firstMs,
    lastMs,
    completedMs,
    result,
    check,
    exactlyOnce: check.accepted === N && check.missing === 0 && check.duplicates === 0 && check.unexpected === 0,
    cpuMs,
    cpuPerPushUs: (cpuMs * 1000) / Math.max(1, accepted),
    perPushByThread,
    fakeCpuPerPushUs: perPushUs(check.cpuSeconds * 1000),
    baselineRss,
    peakRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    workersPeakRssMB: workers?.peakRssMB(),
    postgres,
    workersRss: workersRssTimeline,
  };
}

function logSino(s: SinoRound): void {
  const { check } = s;
  log(
    `Sino:     ${s.accepted}/${N} accepted in ${(s.lastMs / 1000).toFixed(2)} s = ${s.rate} msgs/s ` +
      `(first ${s.firstMs.toFixed(0)} ms, last ${s.lastMs.toFixed(0)} ms, send completed ${s.completedMs.toFixed(0)} ms; ` +
      `fake: ${check.accepted} accepted, ${check.distinct} distinct ids, ${check.duplicates} duplicates, ${check.missing} missing, ` +
      `decrypted ${check.decrypted.ok} ok / ${check.decrypted.failed} failed, peak ${check.concurrentPeak} in flight, ` +
      `${(check.cpuSeconds / (s.completedMs / 1000)).toFixed(2)} cores busy; ` +
      (s.workersPeakRssMB === undefined
        ? `RSS ${mb(s.baselineRss)} MB before, peak ${mb(s.peakRss)} MB; Sino process ${(s.cpuMs / s.completedMs).toFixed(2)} cores busy)`
        : `${WORKERS} sino worker processes, peak RSS ${s.workersPeakRssMB.join(" / ")} MB, ${(s.cpuMs / s.completedMs).toFixed(2)} cores busy)`),
  );
  log(
    `CPU per push: Sino ${workers === undefined ? "process" : "workers"} ${Math.round(s.cpuPerPushUs)} µs` +
      (workers === undefined
        ? ` (${Object.entries(s.perPushByThread)
            .map(([kind, us]) => `${kind} ${us}`)
            .join(", ")} µs)`
        : "") +
      `, fake push service ${s.fakeCpuPerPushUs} µs`,
  );
  if (s.postgres !== undefined) {
    log(
      `PostgreSQL: the workers' ${s.postgres.backends} backends ${Math.round((s.postgres.cpuMs * 1000) / Math.max(1, s.accepted))} µs of CPU per push, ` +
        `${(s.postgres.cpuMs / s.completedMs).toFixed(2)} cores busy`,
    );
  }
  if (s.workersRss !== undefined) log(`workers RSS over the send (MB, every ${Math.max(1, Math.round(s.workersRss.length / 12))} s): ${describeRssTimeline(s.workersRss)}`);
  if (!s.exactlyOnce) log("Sino: NOT every subscription exactly once — see the figures above");
}

/** At most a dozen samples of the workers' RSS timeline, each as `t s: a/b MB`. */
function describeRssTimeline(samples: ReadonlyArray<{ atMs: number; rssMB: number[] }>): string {
  const step = Math.max(1, Math.round(samples.length / 12));
  return samples
    .filter((_, i) => i % step === 0 || i === samples.length - 1)
    .map((x) => `${Math.round(x.atMs / 1000)} s ${x.rssMB.join("/")}`)
    .join(", ");
}

// ── 2. web-push, same N, same fake ───────────────────────────────────────────────────────────
interface WebpushRound {
  readonly rate: number;
  readonly accepted: number;
  readonly seconds: number;
  readonly cpuPerPushUs: number;
}

const webpushAgent = values["no-webpush"] ? undefined : new Agent({ ca: tls.ca, keepAlive: true });
const webpushOptions = {
  vapidDetails: { subject: "mailto:bench@sino.example.com", publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey },
  TTL: 3600,
  agent: webpushAgent,
  timeout: 30_000,
};
const webpushPayload = JSON.stringify({ ...NOTIFICATION, tag: "sino-bench" });

/** `count` pushes through web-push with WEBPUSH_IN_FLIGHT lanes; resolves with how many were accepted. */
async function runWebpush(prefix: string, count: number): Promise<number> {
  const subscriptionOf = (id: string) => {
    const keys = subscriberKeysFor(KEY_SEED, id);
    return { endpoint: fake.endpointFor(id), keys: { p256dh: keys.p256dh.toString("base64url"), auth: keys.auth.toString("base64url") } };
  };
  let next = 0;
  let accepted = 0;
  async function lane(): Promise<void> {
    while (next < count) {
      // Subscriptions built as the application would read them from its database, one by one.
      const subscription = subscriptionOf(`${prefix}${next++}`);
      try {
        const reply = await webpush.sendNotification(subscription, webpushPayload, webpushOptions);
        if (reply.statusCode === 201 || reply.statusCode === 202) accepted++;
      } catch {
        // counted as not accepted
      }
    }
  }
  await Promise.all(Array.from({ length: WEBPUSH_IN_FLIGHT }, lane));
  return accepted;
}

async function timeWebpush(): Promise<WebpushRound> {
  await fake.reset();
  globalThis.gc?.();
  const t0 = performance.now();
  const cpuBefore = process.cpuUsage();
  const accepted = await runWebpush(PREFIX, N);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const round = { rate: Math.round(accepted / seconds), accepted, seconds, cpuPerPushUs: Math.round((cpu.user + cpu.system) / Math.max(1, accepted)) };
  const stats = await fake.stats();
  log(
    `web-push: ${accepted}/${N} accepted in ${seconds.toFixed(2)} s = ${round.rate} msgs/s (${WEBPUSH_IN_FLIGHT} in flight; ` +
      `fake: ${stats.accepted} accepted, ${stats.connections} connections; ${round.cpuPerPushUs} µs of CPU per push)`,
  );
  return round;
}

// ── 3. the encryption-only ceiling of every core ────────────────────────────────────────────
async function timeCeiling(): Promise<EncryptionCeiling> {
  // web-push's garbage would otherwise be collected by V8's helper threads inside the window.
  globalThis.gc?.();
  const ceiling = await measureEncryptionCeiling({ durationMs: Number(values["ceiling-ms"]), payloadBytes: PAYLOAD_BYTES });
  log(`ceiling:  ${ceiling.msgsPerSecond} msgs/s encryption only, ${ceiling.threads} threads, ${ceiling.cpuUsPerMessage} µs of CPU per message (${ceiling.threadCpuUsPerMessage} µs on the threads)`);
  return ceiling;
}

// ── the rounds: Sino, the ceiling and web-push one after another, ROUNDS times ───────────────
// The machine's speed drifts within minutes (other tenants of the host): a ratio of two figures
// measured a minute apart can be off by a quarter. Each round measures the three back to back,
// and the ratios reported are the medians of the rounds' own ratios.
if (webpushAgent !== undefined) {
  await runWebpush("w", WARM_UP);
}
interface Round {
  readonly sino: SinoRound;
  readonly webpush: WebpushRound | undefined;
  readonly ceiling: EncryptionCeiling | undefined;
}
const rounds: Round[] = [];
for (let r = 1; r <= ROUNDS; r++) {
  if (ROUNDS > 1) log(`── round ${r} of ${ROUNDS}`);
  const sino = await timeSino();
  logSino(sino);
  // The ceiling right after Sino: the efficiency divides one by the other.
  const ceiling = values["no-ceiling"] ? undefined : await timeCeiling();
  const webpushRound = webpushAgent === undefined ? undefined : await timeWebpush();
  rounds.push({ sino, webpush: webpushRound, ceiling });
}

// --profile FILE: one more send, not counted, with V8's sampling profiler on the main thread (the
// profiler's own cost would inflate a timed round): where the main thread's CPU per push goes. Then
// another with V8's allocation sampling: what the main thread allocates per push.
if (values.profile !== undefined && workers !== undefined) log("profile:  skipped: with --workers the sends run in other processes");
if (values.profile !== undefined && workers === undefined) {
  const profiler = await startMainThreadProfiler();
  const profiled = await timeSino();
  const result = await profiler.stop();
  writeProfile(values.profile, result);
  const mainUs = profiled.perPushByThread["main"] ?? 0;
  const part = (share: number): string => `${Math.round(share * 100)}% (${Math.round(share * mainUs)} µs)`;
  log(`profile:  main thread ${mainUs} µs per push in a profiled send (${profiled.rate} msgs/s), by what ran: ` +
    result.groups.map((g) => `${g.group} ${part(g.share)}`).join("; "));
  log(`profile:  most self time: ${result.top.map((f) => `${f.name} ${Math.round(f.share * 1000) / 10}%`).join("; ")}`);
  const sampler = await startAllocationSampler();
  const sampled = await timeSino();
  const allocations = await sampler.stop();
  const perPush = (bytes: number): number => Math.round(bytes / Math.max(1, sampled.accepted));
  log(
    `profile:  ${perPush(allocations.allocatedBytes)} bytes allocated per push on the main thread (V8's sampling estimate, ` +
      `one more send); most by: ${allocations.topAllocations.map((f) => `${f.name} ${perPush(f.bytes)}`).join("; ")}`,
  );
  log(`profile:  written to ${values.profile} (open it in Chrome DevTools' Performance panel)`);
}

// Sends to people, on the same engine and push service (not with --workers: they time this process).
let people: PeopleBench | undefined;
if (!values["no-people"] && workers === undefined) {
  people = await measurePeopleSends(
    {
      database,
      engine,
      seed: (prefix, from, count, personOf) => seed(database, prefix, from, count, personOf),
      sendAndWait: async (input) => (await sendAndWait(input)).finished,
      timed,
      log,
    },
    { subscriptions: Number(values["people-subs"]), ids: Number(values["people-ids"]), latencySends: LATENCY_SENDS },
  );
}

await engine.stop({ graceful: true });
await workers?.stop();
await postgresCpu?.close();
await timed.transport.close();
await drop();
webpushAgent?.destroy();
await fake.close();

// ── 4. the HTTP/2 floor: Node's HTTP/2 at both ends, and one encryption, in CPU per push ─────
let floor:
  | { clientUsPerRequest: number; serverUsPerRequest: number; requestsPerSecond: number; encryptUsPerMessage: number; ceilingRatioBound: number }
  | undefined;
if (!values["no-floor"]) {
  const http2 = await measureHttp2Floor({ bodyBytes: encryptedLength(PAYLOAD_BYTES) });
  const encryptUs = measureEncryptUsPerMessage({ durationMs: Number(values["ceiling-ms"]), payloadBytes: PAYLOAD_BYTES });
  for (const line of describeFloor(http2, encryptUs)) log(line);
  floor = {
    clientUsPerRequest: http2.clientUsPerRequest,
    serverUsPerRequest: http2.serverUsPerRequest,
    requestsPerSecond: http2.requestsPerSecond,
    encryptUsPerMessage: encryptUs,
    ceilingRatioBound: ceilingRatioBound(encryptUs, http2.clientUsPerRequest, http2.serverUsPerRequest),
  };
}

// ── 5. outbound webhooks beside a send, in a process of their own (bench/webhooks.ts) ────────
const webhooks = values["no-webhooks"] || workers !== undefined ? undefined : await measureWebhooks();

async function measureWebhooks(): Promise<unknown> {
  return runChildBench("webhooks", ["--subs", String(N), "--db", dialect!, "--rounds", String(ROUNDS)]);
}

// ── 6. segments: the count on both databases and a segment send's rate (bench/segments.ts) ─────
const segments = values["no-segments"] || workers !== undefined ? undefined : await measureSegments();

// ── 6b. delivery rules: a send with caps and sleeping (and, at merge, windows) beside the same send without ─
const deliveryGates = values["no-delivery-gates"] || workers !== undefined ? undefined : await runChildBench("delivery-gates", ["--db", "both", "--send-subs", String(N), "--rounds", String(ROUNDS)]);

async function measureSegments(): Promise<unknown> {
  return runChildBench("segments", ["--db", "both", "--count-subs", values["segment-count-subs"]!, "--send-subs", String(N), "--rounds", String(ROUNDS)]);
}

/** Runs bench/<name>.ts in its own process (stderr shown as it goes); its last stdout line is `{ <name>: … }`. */
async function runChildBench(name: "webhooks" | "segments" | "delivery-gates", args: readonly string[]): Promise<unknown> {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], { stdio: ["ignore", "pipe", "inherit"], env: process.env });
  let last = "";
  for await (const line of createInterface({ input: child.stdout! })) if (line.trim() !== "") last = line;
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`bench/${name}.ts exited with ${String(code)}`);
  return (JSON.parse(last) as Record<string, unknown>)[name];
}

// ── 6. subscription registration throughput, on SQLite and on PostgreSQL ─────────────────────
const registrations: RegistrationBench[] = [];
if (!values["no-registrations"]) {
  for (const registrationDialect of ["sqlite", "postgres"] as const) {
    const r = await measureRegistrations({
      dialect: registrationDialect,
      count: Number(values.registrations),
      connections: Number(values["registration-connections"]),
      postgresUrl: POSTGRES_URL,
    });
    registrations.push(r);
    log(
      `register: ${registrationDialect} ${r.perSecond} registrations/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms ` +
        `(${r.created} created, ${r.failed} failed, ${r.stored} rows stored; ${r.connections} connections, autocannon in its own process)`,
    );
    if (r.created !== r.count || r.stored !== r.created) log(`register: NOT every registration created and stored once on ${registrationDialect}`);
  }
}

// ── 7. ingestion: service-worker reports on both databases, and the bare Fastify floor ─────
const eventsBench: EventsBench[] = [];
let ingestionFloor: FloorBench | undefined;
if (!values["no-ingestion"]) {
  for (const eventsDialect of ["sqlite", "postgres"] as const) {
    const e = await measureEvents({ dialect: eventsDialect, subs: Number(values["ingestion-subs"]), connections: Number(values["registration-connections"]), postgresUrl: POSTGRES_URL });
    eventsBench.push(e);
    log(
      `events:   ${eventsDialect} ${e.perSecond} reports/s, p50 ${e.p50Ms} ms, p99 ${e.p99Ms} ms ` +
        `(${e.answered} answered 204, ${e.failed} failed, ${e.stored} rows stored, in ${e.transactions} transactions; ${e.connections} connections)`,
    );
    if (e.answered !== e.reports || e.stored !== e.answered) log(`events:   NOT every report answered and stored once on ${eventsDialect}`);
  }
  ingestionFloor = await measureFloor({ count: Number(values.registrations), connections: Number(values["registration-connections"]) });
  log(`floor:    bare Fastify ${ingestionFloor.perSecond} requests/s for the registration body, p50 ${ingestionFloor.p50Ms} ms, p99 ${ingestionFloor.p99Ms} ms`);
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

/** Median of `values` (the mean of the middle two for an even count); undefined when empty. */
function median(values: ReadonlyArray<number | undefined>): number | undefined {
  const known = values.filter((v): v is number => v !== undefined).sort((a, b) => a - b);
  if (known.length === 0) return undefined;
  const mid = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[mid]! : (known[mid - 1]! + known[mid]!) / 2;
}

/** The round whose `key` is the (lower) median: its figures are printed as the run's. */
function medianRound<T>(items: readonly T[], key: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => key(a) - key(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

// Each round's own ratios: Sino and its anchors measured within the same half minute.
const roundRatios = rounds.map(({ sino, webpush: w, ceiling: c }) => ({
  sinoOverWebpush: w === undefined ? undefined : round2(sino.rate / w.rate),
  // The same comparison in CPU per push: unlike msgs/s, it does not depend on how many cores the
  // machine's other work left to each sender while it ran.
  sinoOverWebpushCpu: w === undefined ? undefined : round2(w.cpuPerPushUs / sino.cpuPerPushUs),
  sinoOverCeiling: c === undefined ? undefined : round2(sino.rate / c.msgsPerSecond),
  // CPU efficiency: of the CPU Sino's process spends per accepted push (every thread), the share
  // that is the encryption itself, as the ceiling's threads measure it with the same encryptor. The
  // fake push service, which shares the cores here but runs elsewhere in production, is not counted.
  efficiency: c === undefined ? undefined : round2(c.cpuUsPerMessage / sino.cpuPerPushUs),
}));
const ratioOf = (key: keyof (typeof roundRatios)[number]): number | undefined => {
  const m = median(roundRatios.map((r) => r[key]));
  return m === undefined ? undefined : round2(m);
};
const vsWebpush = ratioOf("sinoOverWebpush");
const vsWebpushCpu = ratioOf("sinoOverWebpushCpu");
const vsCeiling = ratioOf("sinoOverCeiling");
const efficiency = ratioOf("efficiency");
const ofRounds = (key: keyof (typeof roundRatios)[number]): string =>
  rounds.length === 1 ? "" : ` (median of ${rounds.length} rounds: ${roundRatios.map((r) => r[key]).join(", ")})`;

const sino = medianRound(rounds, (r) => r.sino.rate).sino;
const sinoCpu = median(rounds.map((r) => r.sino.cpuPerPushUs))!;
const webpushRounds = rounds.flatMap((r) => (r.webpush === undefined ? [] : [r.webpush]));
const webpushMedian = webpushRounds.length === 0 ? undefined : medianRound(webpushRounds, (w) => w.rate);
const ceilingRounds = rounds.flatMap((r) => (r.ceiling === undefined ? [] : [r.ceiling]));
const ceilingMedian = ceilingRounds.length === 0 ? undefined : medianRound(ceilingRounds, (c) => c.cpuUsPerMessage);
const exactlyOnce = rounds.every((r) => r.sino.exactlyOnce);

if (rounds.length > 1) {
  log(
    `rounds:   Sino ${rounds.map((r) => r.sino.rate).join(", ")} msgs/s` +
      (webpushRounds.length > 0 ? `; web-push ${webpushRounds.map((w) => w.rate).join(", ")} msgs/s` : "") +
      `; Sino CPU per push ${rounds.map((r) => Math.round(r.sino.cpuPerPushUs)).join(", ")} µs` +
      (ceilingRounds.length > 0 ? `; ceiling ${ceilingRounds.map((c) => c.cpuUsPerMessage).join(", ")} µs per message` : ""),
  );
}
if (vsWebpush !== undefined) log(`Sino / web-push = ${vsWebpush} (target ≥ 5)${ofRounds("sinoOverWebpush")}; in CPU per push ${vsWebpushCpu}`);
if (vsCeiling !== undefined) log(`Sino / ceiling  = ${vsCeiling} (target ≥ 0.6)${ofRounds("sinoOverCeiling")}`);
if (efficiency !== undefined) {
  log(
    `efficiency = ${efficiency} (target ≥ 0.7)${ofRounds("efficiency")}: encryption ${ceilingMedian!.cpuUsPerMessage} µs / ` +
      `Sino ${Math.round(sinoCpu)} µs of CPU per push (medians), every thread on both sides; ` +
      `the encryption threads alone ${ceilingMedian!.threadCpuUsPerMessage} µs`,
  );
}
if (!exactlyOnce) log("Sino: NOT every subscription exactly once in every round — see the figures above");

// Ingestion, in the same run: reports against the fan-out they follow (a push makes up to two
// reports: target ≥ 2), registrations against the framework's floor (target ≥ 0.3 on SQLite).
const ingestionOf = (db: "sqlite" | "postgres") => {
  const events = eventsBench.find((e) => e.dialect === db);
  const registration = registrations.find((r) => r.dialect === db);
  return {
    eventsPerSecond: events?.perSecond ?? null,
    eventsP99Ms: events?.p99Ms ?? null,
    eventTransactions: events?.transactions ?? null,
    registrationsPerSecond: registration?.perSecond ?? null,
    registrationsP99Ms: registration?.p99Ms ?? null,
  };
};
const ingestionSqlite = ingestionOf("sqlite");
// The fan-out ran on `--db`: its reports are compared on the same database.
const eventsOfRun = ingestionOf(dialect).eventsPerSecond;
const eventsOverFanout = eventsOfRun === null ? null : round2(eventsOfRun / sino.rate);
const registrationsOverFloor =
  ingestionSqlite.registrationsPerSecond === null || ingestionFloor === undefined ? null : round2(ingestionSqlite.registrationsPerSecond / ingestionFloor.perSecond);
if (eventsOverFanout !== null) log(`events / fan-out = ${eventsOverFanout} (target ≥ 2): ${eventsOfRun} reports/s on ${dialect} over ${sino.rate} msgs/s`);
if (registrationsOverFloor !== null) {
  log(`registrations / floor = ${registrationsOverFloor} (target ≥ 0.3): ${ingestionSqlite.registrationsPerSecond} registrations/s on SQLite over ${ingestionFloor!.perSecond} requests/s of bare Fastify`);
}

console.log(
  JSON.stringify({
    subs: N,
    db: dialect,
    cores: availableParallelism(),
    payloadBytes: Buffer.byteLength(JSON.stringify({ ...NOTIFICATION, tag: `sino-${sino.result.id}` })),
    seedSeconds: round2(seedSeconds),
    // The round with the median Sino rate; `exactlyOnce` holds for every round.
    sino: {
      msgsPerSecond: sino.rate,
      accepted: sino.accepted,
      workers:
        workers === undefined
          ? null
          : {
              processes: WORKERS,
              compiled: true,
              peakRssMB: sino.workersPeakRssMB,
              cpuPerPushUs: Math.round(sino.cpuPerPushUs),
              rssTimelineMB: sino.workersRss,
              postgres: sino.postgres === undefined ? null : {
                backends: sino.postgres.backends,
                cpuPerPushUs: Math.round((sino.postgres.cpuMs * 1000) / Math.max(1, sino.accepted)),
                cores: round2(sino.postgres.cpuMs / sino.completedMs),
              },
            },
      firstAcceptedMs: Math.round(sino.firstMs),
      lastAcceptedMs: Math.round(sino.lastMs),
      completedMs: Math.round(sino.completedMs),
      status: sino.result.status,
      counts: sino.result.counts,
      exactlyOnce,
      fake: sino.check,
      rssBeforeMB: mb(sino.baselineRss),
      peakRssMB: mb(sino.peakRss),
      maxRssMB: mb(sino.maxRss),
      cpuCores: round2(sino.cpuMs / sino.completedMs),
      cpuPerPushUs: { process: Math.round(sino.cpuPerPushUs), ...sino.perPushByThread, fake: sino.fakeCpuPerPushUs },
    },
    webpush:
      webpushMedian === undefined
        ? null
        : { msgsPerSecond: webpushMedian.rate, accepted: webpushMedian.accepted, seconds: round2(webpushMedian.seconds), inFlight: WEBPUSH_IN_FLIGHT, cpuPerPushUs: webpushMedian.cpuPerPushUs },
    ceiling:
      ceilingMedian === undefined
        ? null
        : { msgsPerSecond: ceilingMedian.msgsPerSecond, threads: ceilingMedian.threads, cpuUsPerMessage: ceilingMedian.cpuUsPerMessage, threadCpuUsPerMessage: ceilingMedian.threadCpuUsPerMessage },
    floor: floor ?? null,
    latency:
      latenciesMs.length === 0
        ? null
        : { sends: latenciesMs.length, p50Ms: round2(percentile(latenciesMs, 50)), p95Ms: round2(percentile(latenciesMs, 95)) },
    people: people ?? null,
    webhooks: webhooks ?? null,
    segments: segments ?? null,
    deliveryGates: deliveryGates ?? null,
    ingestion: values["no-ingestion"]
      ? null
      : {
          eventsPerSecond: ingestionSqlite.eventsPerSecond,
          registrationsPerSecond: ingestionSqlite.registrationsPerSecond,
          floorPerSecond: ingestionFloor?.perSecond ?? null,
          eventsOverFanout,
          registrationsOverFloor,
          sqlite: ingestionSqlite,
          postgres: ingestionOf("postgres"),
        },
    registrations: registrations.map((r) => ({ db: r.dialect, perSecond: r.perSecond, p50Ms: r.p50Ms, p99Ms: r.p99Ms, created: r.created, failed: r.failed, stored: r.stored, connections: r.connections })),
    ratios: { sinoOverWebpush: vsWebpush ?? null, sinoOverWebpushCpu: vsWebpushCpu ?? null, sinoOverCeiling: vsCeiling ?? null, efficiency: efficiency ?? null },
    rounds: rounds.map((r, i) => ({
      sino: { msgsPerSecond: r.sino.rate, cpuPerPushUs: Math.round(r.sino.cpuPerPushUs), exactlyOnce: r.sino.exactlyOnce },
      webpush: r.webpush === undefined ? null : { msgsPerSecond: r.webpush.rate, cpuPerPushUs: r.webpush.cpuPerPushUs },
      ceiling: r.ceiling === undefined ? null : { msgsPerSecond: r.ceiling.msgsPerSecond, cpuUsPerMessage: r.ceiling.cpuUsPerMessage },
      ratios: Object.fromEntries(Object.entries(roundRatios[i]!).map(([k, v]) => [k, v ?? null])),
    })),
  }),
);
