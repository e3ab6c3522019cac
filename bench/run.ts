/**
 * `npm run bench -- [--subs 20000] [--db sqlite|postgres] [--webpush-inflight 200]
 *   [--decrypt-sample 100] [--ceiling-ms 3000] [--no-webpush] [--no-ceiling] [--no-floor]`
 *
 * How fast one send reaches N subscribers, against what the machine allows. Seeds N subscriptions
 * with real P-256 keys (derived with `subscriberKeysFor`, so the fake can decrypt a sample)
 * pointing at the fake push service in its own process (HTTP/2, TLS, VAPID checked, 1 body in
 * `--decrypt-sample` decrypted), into a fresh
 * SQLite file (or a fresh PostgreSQL schema), then sends ONE ~1 KB notification through the real
 * path: `createSend` (send + range jobs in one transaction) → the engine's lanes (claim, stream
 * sub-batches, encrypt on every core, HTTP/2) → the fake. Seeding is not timed.
 *
 * Then, in the same run: the same N through the `web-push` library (`sendNotification`, 200 in
 * flight, https.Agent trusting the fake's CA) and the encryption-only ceiling of every core
 * (`measureEncryptionCeiling`). Prints the ratios and ends with one JSON line of every figure.
 *
 * Last, the HTTP/2 floor (http2-floor.ts): CPU per request of a bare node:http2 client and server
 * (in their own processes) and of one encryption on one thread. Sino, its encryption threads and
 * the fake share the same cores, so each push costs at least E + C + S of CPU where the ceiling
 * costs E: Sino / ceiling ≤ E/(E+C+S) on this machine, printed as `bound:` beside the ratio.
 *
 * Warm-up, the same for both senders: a few hundred pushes before timing, so neither pays for
 * JIT, TLS handshakes or (Sino) starting its encryption threads inside the measured window — a
 * running server has all three ready. Sino's warm-up subscriptions are deleted before the timed
 * send, so it targets exactly the N seeded ones.
 */
import { Agent } from "node:https";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import webpush from "web-push";
import { createDeliveryEngine } from "../src/delivery/engine.js";
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
import { measureEncryptionCeiling } from "./encryption-ceiling.js";
import { ceilingRatioBound, describeFloor, measureEncryptUsPerMessage, measureHttp2Floor } from "./http2-floor.js";
import { createRepositories } from "../src/store/repositories.js";

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
    // Engine knobs, for tuning runs only; unset = the engine's defaults, as `sino start` runs it.
    lanes: { type: "string" },
    batch: { type: "string" },
    threads: { type: "string" },
    inflight: { type: "string" },
  },
});
const N = Number(values.subs);
const dialect = values.db;
if (!Number.isInteger(N) || N < 1) throw new Error("--subs must be a positive integer");
if (dialect !== "sqlite" && dialect !== "postgres") throw new Error("--db must be sqlite or postgres");
const WEBPUSH_IN_FLIGHT = Number(values["webpush-inflight"]);
const WARM_UP = 500;
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

// ── the fake push service, in its own process ────────────────────────────────────────────────
const fake = await spawnFakePushService({ seed: KEY_SEED, decryptSample: Number(values["decrypt-sample"]), logSize: 16 });
const tls = loadTestTls();

// ── a fresh database ─────────────────────────────────────────────────────────────────────────
interface BenchDatabase {
  readonly database: Database;
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
  const url = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
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
async function seed(database: Database, prefix: string, from: number, count: number): Promise<void> {
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
 * CPU milliseconds (user + system) of this process's main thread, from Linux's per-thread
 * accounting (/proc/self/task/<pid>/stat, in 10 ms ticks): splits Sino's CPU between the main
 * thread (database, HTTP/2, bookkeeping) and the encryption threads. NaN elsewhere.
 */
function mainThreadCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
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
  };
}

// ── 1. Sino ──────────────────────────────────────────────────────────────────────────────────
const { database, drop } = await freshDatabase();
await migrateToLatest(database);

const vapidKeys = generateVapidKeys();
const timed = timedTransport(
  createPushTransport({
    policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
    ca: tls.ca,
    ...(values.inflight === undefined ? {} : { maxInFlightPerOrigin: Number(values.inflight) }),
  }),
);
// The engine as `sino start` builds it, with its default options (lanes, batch, threads = cores).
const engine = createDeliveryEngine({
  repositories: createRepositories(database),
  transport: timed.transport,
  vapid: createVapidSigner({ keys: vapidKeys, subject: "mailto:bench@sino.example.com" }),
  options: {
    ...(values.lanes === undefined ? {} : { lanes: Number(values.lanes) }),
    ...(values.batch === undefined ? {} : { batchSize: Number(values.batch) }),
    ...(values.threads === undefined ? {} : { encryptionThreads: Number(values.threads) }),
  },
});
engine.start();

interface Finished {
  readonly id: number;
  readonly status: string;
  readonly counts: Readonly<Record<string, number>>;
}

/** Creates the send and resolves when the engine reports it finished (progress events, no polling). */
async function sendAndWait(): Promise<{ finished: Promise<Finished> }> {
  let resolve: (value: Finished) => void = () => undefined;
  const finished = new Promise<Finished>((r) => (resolve = r));
  const send = await engine.createSend(NOTIFICATION);
  const done = (s: Notification) => {
    if (s.status === "completed" || s.status === "failed" || s.status === "cancelled") {
      off();
      resolve({ id: s.id, status: s.status, counts: { ...s.counts } });
    }
  };
  const off = engine.onProgress(send.id, done);
  done(send); // already finished (e.g. nobody to send to)
  // The last checkpoint may have been published before we listened: read it once more.
  const now = await engine.getSend(send.id);
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

const seedStarted = performance.now();
await seed(database, PREFIX, 0, N);
const seedSeconds = (performance.now() - seedStarted) / 1000;
log(`seeded ${N} subscriptions (${dialect}) in ${seedSeconds.toFixed(1)} s`);

await fake.reset();
timed.reset();
globalThis.gc?.();
const rss = rssSampler();
const baselineRss = process.memoryUsage.rss();
rss.start();
const cpuBefore = process.cpuUsage();
const mainBefore = mainThreadCpuMs();
const started = performance.now();
const { finished } = await sendAndWait();
const sinoResult = await finished;
const completedMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
const mainCpuMs = mainThreadCpuMs() - mainBefore;
const cpuMs = (cpu.user + cpu.system) / 1000;
// CPU per accepted push: the main thread, the encryption threads (the rest of the process), the fake.
const perPushUs = (ms: number): number => Math.round((ms * 1000) / Math.max(1, timed.accepted));
const peakRss = rss.stop();
const firstMs = timed.first - started;
const lastMs = timed.last - started;
const sinoRate = Math.round(timed.accepted / (lastMs / 1000));
const sinoCheck = await verifyExactlyOnce(N);
const exactlyOnce = sinoCheck.accepted === N && sinoCheck.missing === 0 && sinoCheck.duplicates === 0 && sinoCheck.unexpected === 0;
log(
  `Sino:     ${timed.accepted}/${N} accepted in ${(lastMs / 1000).toFixed(2)} s = ${sinoRate} msgs/s ` +
    `(first ${firstMs.toFixed(0)} ms, last ${lastMs.toFixed(0)} ms, send completed ${completedMs.toFixed(0)} ms; ` +
    `fake: ${sinoCheck.accepted} accepted, ${sinoCheck.distinct} distinct ids, ${sinoCheck.duplicates} duplicates, ${sinoCheck.missing} missing, ` +
    `decrypted ${sinoCheck.decrypted.ok} ok / ${sinoCheck.decrypted.failed} failed, peak ${sinoCheck.concurrentPeak} in flight, ` +
    `${(sinoCheck.cpuSeconds / (completedMs / 1000)).toFixed(2)} cores busy; ` +
    `RSS ${mb(baselineRss)} MB before, peak ${mb(peakRss)} MB; Sino process ${(cpuMs / completedMs).toFixed(2)} cores busy)`,
);
log(
  `CPU per push: Sino main thread ${perPushUs(mainCpuMs)} µs, encryption threads ${perPushUs(cpuMs - mainCpuMs)} µs, ` +
    `fake push service ${perPushUs(sinoCheck.cpuSeconds * 1000)} µs`,
);
if (!exactlyOnce) log("Sino: NOT every subscription exactly once — see the figures above");

await engine.stop({ graceful: true });
await timed.transport.close();
await drop();

// ── 2. web-push, same N, same fake ───────────────────────────────────────────────────────────
let webpushRate: number | undefined;
let webpushAccepted: number | undefined;
let webpushSeconds: number | undefined;
if (!values["no-webpush"]) {
  const agent = new Agent({ ca: tls.ca, keepAlive: true });
  const options = {
    vapidDetails: { subject: "mailto:bench@sino.example.com", publicKey: vapidKeys.publicKey, privateKey: vapidKeys.privateKey },
    TTL: 3600,
    agent,
    timeout: 30_000,
  };
  const subscriptionOf = (id: string) => {
    const keys = subscriberKeysFor(KEY_SEED, id);
    return { endpoint: fake.endpointFor(id), keys: { p256dh: keys.p256dh.toString("base64url"), auth: keys.auth.toString("base64url") } };
  };
  const payload = JSON.stringify({ ...NOTIFICATION, tag: "sino-bench" });
  async function run(prefix: string, count: number): Promise<number> {
    let next = 0;
    let accepted = 0;
    async function lane(): Promise<void> {
      while (next < count) {
        // Subscriptions built as the application would read them from its database, one by one.
        const subscription = subscriptionOf(`${prefix}${next++}`);
        try {
          const reply = await webpush.sendNotification(subscription, payload, options);
          if (reply.statusCode === 201 || reply.statusCode === 202) accepted++;
        } catch {
          // counted as not accepted
        }
      }
    }
    await Promise.all(Array.from({ length: WEBPUSH_IN_FLIGHT }, lane));
    return accepted;
  }
  await run("w", WARM_UP);
  await fake.reset();
  const t0 = performance.now();
  webpushAccepted = await run(PREFIX, N);
  webpushSeconds = (performance.now() - t0) / 1000;
  webpushRate = Math.round(webpushAccepted / webpushSeconds);
  const stats = await fake.stats();
  agent.destroy();
  log(`web-push: ${webpushAccepted}/${N} accepted in ${webpushSeconds.toFixed(2)} s = ${webpushRate} msgs/s (${WEBPUSH_IN_FLIGHT} in flight; fake: ${stats.accepted} accepted, ${stats.connections} connections)`);
}
await fake.close();

// ── 3. the encryption-only ceiling of every core ────────────────────────────────────────────
let ceiling: Awaited<ReturnType<typeof measureEncryptionCeiling>> | undefined;
if (!values["no-ceiling"]) {
  ceiling = await measureEncryptionCeiling({ durationMs: Number(values["ceiling-ms"]), payloadBytes: PAYLOAD_BYTES });
  log(`ceiling:  ${ceiling.msgsPerSecond} msgs/s encryption only, ${ceiling.threads} threads`);
}

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

const round2 = (x: number): number => Math.round(x * 100) / 100;
const vsWebpush = webpushRate === undefined ? undefined : round2(sinoRate / webpushRate);
const vsCeiling = ceiling === undefined ? undefined : round2(sinoRate / ceiling.msgsPerSecond);
if (vsWebpush !== undefined) log(`Sino / web-push = ${vsWebpush} (target ≥ 5)`);
if (vsCeiling !== undefined) log(`Sino / ceiling  = ${vsCeiling} (target ≥ 0.6)`);

console.log(
  JSON.stringify({
    subs: N,
    db: dialect,
    cores: availableParallelism(),
    payloadBytes: Buffer.byteLength(JSON.stringify({ ...NOTIFICATION, tag: `sino-${sinoResult.id}` })),
    seedSeconds: round2(seedSeconds),
    sino: {
      msgsPerSecond: sinoRate,
      accepted: timed.accepted,
      firstAcceptedMs: Math.round(firstMs),
      lastAcceptedMs: Math.round(lastMs),
      completedMs: Math.round(completedMs),
      status: sinoResult.status,
      counts: sinoResult.counts,
      exactlyOnce,
      fake: sinoCheck,
      rssBeforeMB: mb(baselineRss),
      peakRssMB: mb(peakRss),
      maxRssMB: mb(process.resourceUsage().maxRSS * 1024),
      cpuCores: round2(cpuMs / completedMs),
      cpuPerPushUs: { mainThread: perPushUs(mainCpuMs), otherThreads: perPushUs(cpuMs - mainCpuMs), fake: perPushUs(sinoCheck.cpuSeconds * 1000) },
    },
    webpush: webpushRate === undefined ? null : { msgsPerSecond: webpushRate, accepted: webpushAccepted, seconds: round2(webpushSeconds!), inFlight: WEBPUSH_IN_FLIGHT },
    ceiling: ceiling === undefined ? null : { msgsPerSecond: ceiling.msgsPerSecond, threads: ceiling.threads },
    floor: floor ?? null,
    ratios: { sinoOverWebpush: vsWebpush ?? null, sinoOverCeiling: vsCeiling ?? null },
  }),
);
