/**
 * `npm run bench -- --soak [--subs 200000] [--db sqlite|postgres] [--reporters 32] [--clicks-every 10]`
 *
 * A big send while its service-worker reports come back, against a running server started as
 * production starts it (compiled: `node bin/sino.js start`, its embedded delivery lanes, a fresh
 * SQLite file or PostgreSQL schema). Seeds `--subs` subscriptions pointing at the fake push service
 * (its own process), creates one send through the API (`POST /api/v1/notifications`, an admin
 * token), and while the send runs:
 * - reports arrive at the fan-out's rate: for every push the fake has accepted, a `shown` report
 *   (`POST /api/v1/events` with the subscription's endpoint and auth, as its service worker would send it),
 *   and a `clicked` one for every `--clicks-every`-th subscription, from `--reporters` concurrent
 *   keep-alive connections;
 * - an operator reads the send and the list (`GET /api/v1/notifications/:id`, `GET
 *   /api/v1/notifications`) every 250 ms: their p50/p95;
 * - the server's RSS is sampled every second.
 * At the end every report answered 204 must be a row in `notification_events` (reports lost = 204
 * answers minus rows; must be 0), and every subscription accepted once by the fake.
 * Prints one JSON line `{ soak: … }`.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import pg from "pg";
import { TOKEN_SECRET_PREFIX } from "../src/shared/api/tokens.js";
import { createDatabase, type Database } from "../src/store/database.js";
import { migrateToLatest } from "../src/store/migrate.js";
import { createRepositories } from "../src/store/repositories.js";
import { subscriberKeysFor } from "../test/support/fake-push/keys.js";
import { spawnFakePushService } from "../test/support/fake-push/remote.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";
import { buildServer, procCpuMs } from "./worker-processes.js";
import { readFileSync } from "node:fs";

const { values } = parseArgs({
  options: {
    soak: { type: "boolean", default: true },
    subs: { type: "string", default: "200000" },
    db: { type: "string", default: "sqlite" },
    reporters: { type: "string", default: "32" },
    "clicks-every": { type: "string", default: "10" },
  },
  strict: false,
});
const N = Number(values.subs);
const dialect = String(values.db);
const REPORTERS = Number(values.reporters);
const CLICKS_EVERY = Number(values["clicks-every"]);
if (!Number.isInteger(N) || N < 1) throw new Error("--subs must be a positive integer");
if (dialect !== "sqlite" && dialect !== "postgres") throw new Error("--db must be sqlite or postgres");
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const KEY_SEED = "sino-bench";
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const round1 = (x: number): number => Math.round(x * 10) / 10;

const fake = await spawnFakePushService({ seed: KEY_SEED, decryptSample: 100, logSize: 16 });
const tls = loadTestTls();

// ── a fresh database, seeded, with an admin token ───────────────────────────────────────────
const dir = mkdtempSync(join(tmpdir(), "sino-soak-"));
const schema = `sino_soak_${process.pid}`;
const databaseUrl = dialect === "sqlite" ? join(dir, "sino.db") : POSTGRES_URL;
async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
if (dialect === "postgres") await admin(`create schema ${schema}`);
const database: Database = createDatabase(dialect === "sqlite" ? { url: databaseUrl } : { url: databaseUrl, schema });
await migrateToLatest(database);

const seedStarted = performance.now();
const now = Date.now();
for (let t = 0; t < N; t += 50_000) {
  await database.db.transaction().execute(async (trx) => {
    for (let i = t; i < Math.min(N, t + 50_000); i += 1000) {
      const rows = [];
      for (let j = i; j < Math.min(N, t + 50_000, i + 1000); j++) {
        const keys = subscriberKeysFor(KEY_SEED, `s${j}`);
        rows.push({ endpoint: fake.endpointFor(`s${j}`), p256dh: keys.p256dh.toString("base64url"), auth: keys.auth.toString("base64url"), user_agent: null, created_at: now, updated_at: now, last_seen_at: now });
      }
      await trx.insertInto("subscriptions").values(rows).execute();
    }
  });
}
log(`soak:     seeded ${N} subscriptions (${dialect}) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

const repositories = createRepositories(database);
const created = await repositories.users.create({ name: "Bench", email: "bench@sino.example.com", role: "admin", passwordHash: "unused" }, now);
if (created.outcome !== "created") throw new Error("soak: could not create the operator");
const secret = `${TOKEN_SECRET_PREFIX}${randomBytes(24).toString("base64url")}`;
await repositories.apiTokens.create(
  { name: "soak", scope: "admin", prefix: secret.slice(0, 12), secretHash: createHash("sha256").update(secret).digest("hex"), createdById: created.user.id, createdByName: "Bench" },
  now,
);
if (dialect === "sqlite") await database.destroy();

// ── the server, compiled, as `sino start` runs ──────────────────────────────────────────────
buildServer(log);
const port = await freePort();
const server = spawn(process.execPath, [fileURLToPath(new URL("../bin/sino.js", import.meta.url)), "start"], {
  env: {
    ...process.env,
    SINO_HOST: "127.0.0.1",
    SINO_PORT: String(port),
    SINO_DATA_DIR: dir,
    SINO_WEB_DIR: join(dir, "no-web-app"),
    DATABASE_URL: databaseUrl,
    ...(dialect === "postgres" ? { SINO_DATABASE_SCHEMA: schema, PGOPTIONS: "-c max_parallel_workers_per_gather=0" } : {}),
    SINO_PUSH_ALLOWED_HOSTS: "127.0.0.1",
    SINO_PUSH_ALLOW_PRIVATE: "true",
    SINO_PUSH_CA_FILE: tls.caPath,
    SINO_LOG_LEVEL: "warn",
    // A bench runs at any hour: its marketing send is not held for the subscribers' local window
    // (the local-time gate still runs, every target open).
    SINO_SEND_WINDOW: "00:00-00:00",
  },
  stdio: ["ignore", "pipe", "inherit"],
});
let stopping = false;
// Whatever ends this process (a failed check throws) takes its children with it.
process.once("exit", () => {
  if (server.exitCode === null) server.kill("SIGKILL");
  fake.process.kill("SIGKILL");
});
server.once("exit", (code) => {
  if (!stopping) {
    log(`soak:     the server exited (${String(code)}) during the run`);
    fake.process.kill("SIGTERM");
    process.exit(1);
  }
});
await new Promise<void>((resolve) => createInterface({ input: server.stdout! }).once("line", () => resolve()));
server.stdout!.resume();
const base = `http://127.0.0.1:${port}`;
const authorization = `Bearer ${secret}`;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port: p } = probe.address() as { port: number };
      probe.close(() => resolve(p));
    });
  });
}

function rssMB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match === null ? Number.NaN : round1(Number(match[1]) / 1024);
}

// ── the send, and everything that runs beside it ────────────────────────────────────────────
await fake.reset();
const rssTimeline: Array<{ atS: number; rssMB: number }> = [];
const started = performance.now();
const cpuBefore = procCpuMs(server.pid!);
const rssTimer = setInterval(() => rssTimeline.push({ atS: Math.round((performance.now() - started) / 1000), rssMB: rssMB(server.pid!) }), 1000);
rssTimeline.push({ atS: 0, rssMB: rssMB(server.pid!) });

const createdSend = await fetch(`${base}/api/v1/notifications`, {
  method: "POST",
  headers: { authorization, "content-type": "application/json" },
  body: JSON.stringify({ title: "Soak: promoção de inverno", body: "Aproveite: ".concat("ofertas para assinantes do Sino. ".repeat(8)).trim(), url: "https://sino.example.com/ofertas" }),
});
if (createdSend.status !== 201) throw new Error(`soak: creating the send answered ${createdSend.status}: ${await createdSend.text()}`);
const sendId = ((await createdSend.json()) as { notification: { id: string } }).notification.id;

// The fan-out's progress, read from the fake: reports may be sent for that many subscriptions.
let accepted = 0;
let sendDone = false;
const progress = (async () => {
  while (!sendDone) {
    accepted = (await fake.stats()).accepted;
    await new Promise((r) => setTimeout(r, 200));
  }
  accepted = (await fake.stats()).accepted;
})();

// The reports: one `shown` per accepted push, one `clicked` per CLICKS_EVERY.
const reports = { answered204: 0, refused: 0, errors: 0, byStatus: {} as Record<string, number>, latenciesMs: [] as number[] };
const queue: Array<{ index: number; type: "shown" | "clicked" }> = [];
let queued = 0;
let reportersDone = false;
async function reporter(): Promise<void> {
  for (;;) {
    while (queued < accepted) {
      queue.push({ index: queued, type: "shown" });
      if (queued % CLICKS_EVERY === 0) queue.push({ index: queued, type: "clicked" });
      queued++;
    }
    const next = queue.shift();
    if (next === undefined) {
      if (reportersDone && queued >= N) return;
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    const keys = subscriberKeysFor(KEY_SEED, `s${next.index}`);
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}/api/v1/events`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ notificationId: sendId, type: next.type, endpoint: fake.endpointFor(`s${next.index}`), auth: keys.auth.toString("base64url") }),
      });
      await res.arrayBuffer();
      reports.latenciesMs.push(performance.now() - t0);
      reports.byStatus[res.status] = (reports.byStatus[res.status] ?? 0) + 1;
      if (res.status === 204) reports.answered204++;
      else reports.refused++;
    } catch {
      reports.errors++;
    }
  }
}

// The operator: the send and the list, every 250 ms.
const operator = { one: [] as number[], list: [] as number[], failed: 0 };
async function operatorLoop(): Promise<void> {
  while (!reportersDone) {
    for (const [path, into] of [[`/api/v1/notifications/${sendId}`, operator.one], ["/api/v1/notifications", operator.list]] as const) {
      const t0 = performance.now();
      const res = await fetch(`${base}${path}`, { headers: { authorization } });
      await res.arrayBuffer();
      if (res.status === 200) into.push(performance.now() - t0);
      else operator.failed++;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

const reporting = Promise.all(Array.from({ length: REPORTERS }, reporter));
const operating = operatorLoop();
let sendStatus = "";
for (;;) {
  const res = await fetch(`${base}/api/v1/notifications/${sendId}`, { headers: { authorization } });
  if (res.status !== 200) throw new Error(`soak: reading the send answered ${res.status}`);
  const { notification } = (await res.json()) as { notification: { status: string } };
  if (["completed", "failed", "cancelled"].includes(notification.status)) {
    sendStatus = notification.status;
    break;
  }
  await new Promise((r) => setTimeout(r, 500));
}
const sendSeconds = (performance.now() - started) / 1000;
sendDone = true;
await progress;
reportersDone = true;
await reporting;
await operating;
const totalSeconds = (performance.now() - started) / 1000;
clearInterval(rssTimer);
rssTimeline.push({ atS: Math.round(totalSeconds), rssMB: rssMB(server.pid!) });
const serverCpuMs = procCpuMs(server.pid!) - cpuBefore;

stopping = true;
server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));

// ── count: every report answered 204 must be a row ──────────────────────────────────────────
const counted = dialect === "sqlite" ? createDatabase({ url: databaseUrl }) : createDatabase({ url: databaseUrl, schema });
const rows = await counted.db.selectFrom("notification_events").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
await counted.destroy();
if (dialect === "postgres") {
  await database.destroy();
  await admin(`drop schema if exists ${schema} cascade`);
}
const check = await fake.stats({ byId: true });
let missing = 0;
for (let i = 0; i < N; i++) if ((check.acceptedById?.[`s${i}`] ?? 0) === 0) missing++;
await fake.close();
rmSync(dir, { recursive: true, force: true });

function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
const stored = Number(rows.n);
const rssValues = rssTimeline.map((s) => s.rssMB);
const soak = {
  subs: N,
  db: dialect,
  send: { status: sendStatus, seconds: round1(sendSeconds), msgsPerSecond: Math.round(check.accepted / sendSeconds), accepted: check.accepted, missing },
  reports: {
    sent: reports.answered204 + reports.refused + reports.errors,
    answered204: reports.answered204,
    stored,
    lost: reports.answered204 - stored,
    refused: reports.refused,
    errors: reports.errors,
    byStatus: reports.byStatus,
    perSecond: Math.round(reports.answered204 / totalSeconds),
    p95Ms: round1(percentile(reports.latenciesMs, 95)),
    reporters: REPORTERS,
    tailSeconds: round1(totalSeconds - sendSeconds),
  },
  operator: {
    notificationP50Ms: round1(percentile(operator.one, 50)),
    notificationP95Ms: round1(percentile(operator.one, 95)),
    listP50Ms: round1(percentile(operator.list, 50)),
    listP95Ms: round1(percentile(operator.list, 95)),
    requests: operator.one.length + operator.list.length,
    failed: operator.failed,
  },
  server: {
    rssStartMB: rssValues[0],
    rssPeakMB: Math.max(...rssValues),
    rssEndMB: rssValues[rssValues.length - 1],
    // The second half against the first: flat when close to 1.
    rssSecondHalfOverFirstHalf: round1((Math.max(...rssValues.slice(Math.floor(rssValues.length / 2))) / Math.max(...rssValues.slice(0, Math.ceil(rssValues.length / 2)))) * 100) / 100,
    rssTimelineMB: rssTimeline.filter((_, i) => i % Math.max(1, Math.round(rssTimeline.length / 20)) === 0),
    cpuCores: Math.round((serverCpuMs / 1000 / totalSeconds) * 100) / 100,
  },
};
log(
  `soak:     send ${soak.send.status} in ${soak.send.seconds} s = ${soak.send.msgsPerSecond} msgs/s (${soak.send.missing} missing); ` +
    `reports ${soak.reports.answered204} answered 204, ${stored} stored, ${soak.reports.lost} lost (target 0), ${soak.reports.refused} refused, ${soak.reports.errors} errors, ` +
    `${soak.reports.perSecond}/s, p95 ${soak.reports.p95Ms} ms, ${soak.reports.tailSeconds} s after the send`,
);
log(
  `soak:     operator GET /notifications/:id p50 ${soak.operator.notificationP50Ms} ms p95 ${soak.operator.notificationP95Ms} ms; list p50 ${soak.operator.listP50Ms} ms ` +
    `p95 ${soak.operator.listP95Ms} ms (target p95 < 200 ms; ${soak.operator.requests} requests, ${soak.operator.failed} failed)`,
);
log(
  `soak:     server RSS ${soak.server.rssStartMB} MB at the start, peak ${soak.server.rssPeakMB} MB, ${soak.server.rssEndMB} MB at the end; ` +
    `second half / first half ${soak.server.rssSecondHalfOverFirstHalf}; ${soak.server.cpuCores} cores busy`,
);
console.log(JSON.stringify({ soak }));
