/**
 * `npm run bench:segments -- [--db both|sqlite|postgres] [--count-subs 1000000] [--runs 5]
 *   [--send-subs 20000] [--rounds 3] [--no-send] [--keep]`
 *
 * Segments (issue 24, "Speed"), on SQLite and PostgreSQL:
 *
 * - Count: `--count-subs` (1,000,000) subscriptions, each identified as its own person with 5
 *   trusted tags (`plano`, `cidade`, `idade` as a number, `bairro`, and `optout` on one person in
 *   ten, `newsletter` on the others), then the count of a 4-condition expression with one `ou` and
 *   one `não` (EXPRESSION below) through the segments repository's `countSegment`, as
 *   `POST /segments/count` runs it: the median of `--runs` (5) after one warm-up. The planner's
 *   statistics are taken first (ANALYZE), as PostgreSQL's autovacuum and SQLite's `PRAGMA
 *   optimize` would; on PostgreSQL as VACUUM ANALYZE, which autovacuum also runs after a table's
 *   inserts (autovacuum_vacuum_insert_threshold): it sets the visibility map, so the tag sets are
 *   read by index-only scans as on a server past its first minutes (a table just filled reads
 *   its heap instead: 1.22 s against 0.90 s on one machine). The query plan (EXPLAIN / EXPLAIN QUERY PLAN) goes to stderr. Targets: < 1 s
 *   on PostgreSQL, < 2 s on SQLite.
 * - Send: `--send-subs` (20,000, as `npm run bench --subs`, which passes its own; a million pushes
 *   per send would take many minutes a round) subscriptions tagged the same way, and beside them a
 *   database of exactly as many subscriptions as the segment matches there, all with real keys
 *   pointing at the fake push service in its own process: a send to the segment and a send to
 *   everyone of the other (the same number of pushes), alternating `--rounds` (3) times, each send's msgs/s
 *   taken from its first to its last accepted push (which of the two goes first alternates by
 *   round, so a drift of the machine's speed favours neither). The ratio segment / everyone is the
 *   median of the rounds' own ratios (target ≥ 0.95).
 *
 * The tables are filled with set-based INSERT … SELECT over generate_series (PostgreSQL) or a
 * recursive CTE (SQLite): one statement per table, so a million rows take seconds, not minutes.
 * PostgreSQL runs in a schema of its own, dropped at the end. Prints one JSON line: `{ segments }`.
 *
 * `--keep`: the count's database is kept after the run (PostgreSQL: schema `sino_bench_segcount_kept`;
 * SQLite: `sino-bench-segcount-kept/sino.db` in the temporary directory) and used again by the next
 * `--keep` run when it holds exactly `--count-subs` subscriptions and their tags, skipping the
 * seeding (about a minute per database). Migrations added since run on it first, as on an
 * upgraded server, so a migration's backfill of existing rows is measured too. Drop it by hand
 * (`drop schema sino_bench_segcount_kept cascade`, or the file) when done.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { CompiledQuery, sql, type Kysely } from "kysely";
import pg from "pg";
import { createDeliveryEngine, type DeliveryEngine } from "../src/delivery/engine.js";
import { createPushTransport, isTransportFailure, type PushTransport } from "../src/push/transport.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { parseSegment } from "../src/shared/segments/parse.js";
import { SEGMENT_LIMITS, type SegmentNode } from "../src/shared/segments/tree.js";
import { createDatabase, type Database, type Dialect } from "../src/store/database.js";
import { migrateToLatest } from "../src/store/migrate.js";
import type { Notification } from "../src/store/notifications-repository.js";
import { createRepositories } from "../src/store/repositories.js";
import type { Schema } from "../src/store/schema.js";
import { resolveChannelIds } from "../src/store/segment-sql.js";
import { applyCountSettings, countQuery, isSegmentTimeout } from "../src/store/segments-repository.js";
import { subscriberKeysFor } from "../test/support/fake-push/keys.js";
import { spawnFakePushService } from "../test/support/fake-push/remote.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    "count-subs": { type: "string", default: "1000000" },
    runs: { type: "string", default: "5" },
    "send-subs": { type: "string", default: "20000" },
    rounds: { type: "string", default: "3" },
    "no-send": { type: "boolean", default: false },
    keep: { type: "boolean", default: false },
  },
});
const DIALECTS: Dialect[] = values.db === "both" ? ["sqlite", "postgres"] : [values.db as Dialect];
if (!DIALECTS.every((d) => d === "sqlite" || d === "postgres")) throw new Error("--db must be both, sqlite or postgres");
const COUNT_SUBS = positive("count-subs");
const RUNS = positive("runs");
const SEND_SUBS = positive("send-subs");
const ROUNDS = positive("rounds");
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const KEY_SEED = "sino-bench";
const EXPRESSION = "(plano = premium ou idade >= 60) e cidade = Campinas e não tem optout";
const NOTIFICATION = { title: "Promoção de inverno", body: "Aproveite: ".concat("ofertas para assinantes do Sino. ".repeat(27)).trim() };
const log = (line: string): void => void process.stderr.write(`${line}\n`);

function positive(name: string): number {
  const value = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

const parsed = parseSegment(EXPRESSION);
if (!parsed.ok) throw new Error(`the bench's expression does not parse: ${JSON.stringify(parsed.error)}`);
const TREE: SegmentNode = parsed.tree;

// ── fresh databases ────────────────────────────────────────────────────────────────────────────
interface BenchDatabase {
  readonly database: Database;
  drop(): Promise<void>;
}

/** A database of its own; `kept` (--keep): the same one every run, opened as it was left and never dropped. */
async function freshDatabase(dialect: Dialect, name: string, kept = false): Promise<BenchDatabase> {
  let database: Database;
  let drop: () => Promise<void>;
  if (dialect === "sqlite") {
    const dir = kept ? join(tmpdir(), `sino-bench-${name}-kept`) : mkdtempSync(join(tmpdir(), `sino-bench-${name}-`));
    if (kept) mkdirSync(dir, { recursive: true });
    database = createDatabase({ url: join(dir, "sino.db") });
    drop = async () => {
      await database.destroy();
      if (!kept) rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const schema = kept ? `sino_bench_${name}_kept` : `sino_bench_${name}_${process.pid}`;
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(text).finally(() => client.end());
    };
    if (!kept) await admin(`drop schema if exists ${schema} cascade`);
    await admin(`create schema if not exists ${schema}`);
    database = createDatabase({ url: POSTGRES_URL, schema });
    drop = async () => {
      await database.destroy();
      if (!kept) await admin(`drop schema if exists ${schema} cascade`);
    };
  }
  await migrateToLatest(database);
  return { database, drop };
}

// ── the data: set-based inserts ───────────────────────────────────────────────────────────────
/** `i` from 1 to `count`: PostgreSQL's generate_series, SQLite's recursive CTE. */
function series(dialect: Dialect, count: number) {
  return dialect === "postgres"
    ? { with: sql``, from: sql`generate_series(1, ${sql.lit(count)}) as s(i)` }
    : { with: sql`with recursive s(i) as (select 1 union all select i + 1 from s where i < ${sql.lit(count)}) `, from: sql`s` };
}

/**
 * Five trusted tags per person `p<i>`, spread independently of one another: plano (40% premium),
 * cidade (70% Campinas), idade 18–80, bairro (50 values), optout on one in ten (newsletter else).
 */
async function seedTags(db: Kysely<Schema>, dialect: Dialect, count: number, now: number): Promise<void> {
  const { with: w, from } = series(dialect, count);
  const person = sql`'p' || i`;
  const at = sql.lit(now);
  const tags = [
    sql`select ${person}, 'plano', case when i % 10 < 4 then 'premium' when i % 10 < 8 then 'basico' else 'gratis' end, null, null, ${at} from ${from}`,
    sql`select ${person}, 'cidade', case when (i / 10) % 10 < 7 then 'Campinas' when (i / 10) % 10 < 9 then 'São Paulo' else 'Sorocaba' end, null, null, ${at} from ${from}`,
    sql`select ${person}, 'idade', cast(18 + (i / 100) % 63 as text), 18 + (i / 100) % 63, null, ${at} from ${from}`,
    sql`select ${person}, 'bairro', 'bairro-' || ((i / 1000) % 50), null, null, ${at} from ${from}`,
    sql`select ${person}, case when (i / 7) % 10 = 0 then 'optout' else 'newsletter' end, null, null, null, ${at} from ${from}`,
  ];
  for (const select of tags) {
    await sql`${w}insert into person_tags (person_id, key, value, num_value, time_value, updated_at) ${select}`.execute(db);
  }
}

/** `count` identified subscriptions whose keys need not be real (the count never pushes). */
async function seedCountSubscriptions(db: Kysely<Schema>, dialect: Dialect, count: number, now: number): Promise<void> {
  const { with: w, from } = series(dialect, count);
  const at = sql.lit(now);
  await sql`${w}insert into subscriptions (endpoint, p256dh, auth, user_agent, created_at, updated_at, last_seen_at, person_id, identified_at)
    select 'https://push.example.com/' || i, 'p256dh', 'auth', null, ${at}, ${at}, ${at}, 'p' || i, ${at} from ${from}`.execute(db);
}

/** --keep: whether the kept database already holds the count's data (`count` subscriptions, 5 tags each). */
async function seeded(db: Kysely<Schema>, count: number): Promise<boolean> {
  const subscriptions = await db.selectFrom("subscriptions").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  const tags = await db.selectFrom("person_tags").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return Number(subscriptions.n) === count && Number(tags.n) === count * 5;
}

async function analyze(db: Kysely<Schema>, dialect: Dialect): Promise<void> {
  await (dialect === "postgres" ? sql`vacuum analyze` : sql`analyze`).execute(db);
}

// ── the count ──────────────────────────────────────────────────────────────────────────────────
interface CountResult {
  readonly subscriptions: number;
  readonly people: number;
  /**
   * PostgreSQL: the repository's count stopped at its statement timeout (SEGMENT_LIMITS), so the
   * API would answer `segment_timeout`; the times are then of the same statement without one.
   */
  readonly timedOut: boolean;
  readonly medianMs: number;
  readonly runsMs: number[];
  readonly seedSeconds: number;
}

async function measureCount(dialect: Dialect): Promise<CountResult> {
  const { database, drop } = await freshDatabase(dialect, "segcount", values.keep);
  try {
    const now = Date.now();
    const seedStarted = performance.now();
    const reused = values.keep && (await seeded(database.db, COUNT_SUBS));
    if (!reused) {
      await sql`delete from person_tags`.execute(database.db);
      await sql`delete from subscriptions`.execute(database.db);
      await seedCountSubscriptions(database.db, dialect, COUNT_SUBS, now);
      await seedTags(database.db, dialect, COUNT_SUBS, now);
    }
    await analyze(database.db, dialect);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    log(`${dialect}: ${COUNT_SUBS} subscriptions and ${COUNT_SUBS * 5} trusted tags ${reused ? "kept from an earlier --keep run" : "seeded"} in ${seedSeconds.toFixed(1)} s`);
    const statement = await countStatement(database, now);
    await explain(database, dialect, statement);

    const repositories = createRepositories(database);
    let timedOut = false;
    let count = () => repositories.segments.countSegment(TREE, "trusted", now);
    let counted = await count().catch((error: unknown) => {
      if (!isSegmentTimeout(error)) throw error;
      timedOut = true;
      return undefined;
    });
    if (timedOut) {
      log(`${dialect}: the count passed the ${SEGMENT_LIMITS.statementTimeoutMs} ms statement timeout (segment_timeout); timing the same statement without it`);
      count = async () => {
        const row = (await withoutJit(database, dialect, (db) => db.executeQuery<{ subscriptions: number | string; people: number | string }>(statement))).rows[0]!;
        return { subscriptions: Number(row.subscriptions), people: Number(row.people) };
      };
      counted = await count();
    }
    const runsMs: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      counted = await count();
      runsMs.push(round(performance.now() - started));
    }
    const medianMs = median(runsMs);
    log(`${dialect}: count of "${EXPRESSION}" = ${counted!.subscriptions} subscriptions, ${counted!.people} people; median ${medianMs} ms of ${RUNS} (${runsMs.join(", ")})`);
    return { subscriptions: counted!.subscriptions, people: counted!.people, timedOut, medianMs, runsMs, seedSeconds: round(seedSeconds) };
  } finally {
    await drop();
  }
}

/** The count's statement, exactly as the repository's countSegment builds it. */
async function countStatement(database: Database, now: number): Promise<CompiledQuery> {
  const channelIds = await resolveChannelIds(database.db, TREE);
  return countQuery(database.db, database.dialect, TREE, "trusted", now, channelIds).compile();
}

/** Runs `work` as countSegment runs its statement: on PostgreSQL, in a transaction with its settings. */
async function withoutJit<T>(database: Database, dialect: Dialect, work: (db: Kysely<Schema>) => Promise<T>): Promise<T> {
  if (dialect !== "postgres") return work(database.db);
  return database.db.transaction().execute(async (trx) => {
    await applyCountSettings(trx);
    return work(trx);
  });
}

/** The plan of the count's statement, on stderr (PostgreSQL's with the time of each step). */
async function explain(database: Database, dialect: Dialect, query: CompiledQuery): Promise<void> {
  const prefix = dialect === "postgres" ? "explain (analyze, costs off) " : "explain query plan ";
  const result = await withoutJit(database, dialect, (db) => db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + query.sql, [...query.parameters])));
  log(`${dialect}: plan of the count (${prefix.trim()}):\n  ${query.sql}`);
  for (const row of result.rows) log(`    ${dialect === "postgres" ? String(row["QUERY PLAN"]) : `${String(row["id"])} ${String(row["parent"])} ${String(row["detail"])}`}`);
}

// ── the send ───────────────────────────────────────────────────────────────────────────────────
interface SendResult {
  readonly targets: number;
  readonly everyoneMsgsPerSecond: number;
  readonly segmentMsgsPerSecond: number;
  readonly ratio: number;
  readonly rounds: Array<{ everyone: number; segment: number; ratio: number }>;
}

async function measureSend(dialect: Dialect, endpointFor: (id: string) => string): Promise<SendResult> {
  const tls = loadTestTls();
  let first = 0;
  let last = 0;
  const inner = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: tls.ca });
  const transport: PushTransport = {
    async send(request) {
      const result = await inner.send(request);
      if (!isTransportFailure(result) && result.status < 300) {
        const at = performance.now();
        if (first === 0) first = at;
        last = at;
      }
      return result;
    },
    stats: () => inner.stats(),
    close: () => inner.close(),
  };
  const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:bench@sino.example.com" });
  // The segment's table (`--send-subs` tagged subscriptions), and a table of exactly as many
  // subscriptions as the segment matches there: the all-audience send of the same size.
  const tagged = await freshDatabase(dialect, "segsend");
  const plain = await freshDatabase(dialect, "allsend");
  const engines = [tagged, plain].map(({ database }) => createDeliveryEngine({ repositories: createRepositories(database), transport, vapid, options: {} }));
  try {
    const now = Date.now();
    const seedStarted = performance.now();
    await seedSendSubscriptions(tagged.database, now, SEND_SUBS, (j) => endpointFor(`s${j}`), (j) => `s${j}`);
    await seedTags(tagged.database.db, dialect, SEND_SUBS, now);
    await analyze(tagged.database.db, dialect);
    const targets = (await createRepositories(tagged.database).segments.countSegment(TREE, "trusted", now)).subscriptions;
    await seedSendSubscriptions(plain.database, now, targets, (j) => endpointFor(`e${j}`), (j) => `e${j}`);
    await analyze(plain.database.db, dialect);
    log(`${dialect}: ${SEND_SUBS} tagged subscriptions (${targets} in the segment) and ${targets} others, with real keys, seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    for (const engine of engines) engine.start();
    const [segmentEngine, everyoneEngine] = engines as [DeliveryEngine, DeliveryEngine];

    const send = async (engine: DeliveryEngine, audience: Notification["audience"] | undefined): Promise<{ rate: number; accepted: number }> => {
      first = 0;
      last = 0;
      const created = await engine.createNotification({ ...NOTIFICATION, ...(audience === undefined ? {} : { audience }) });
      await new Promise<void>((resolve) => {
        const done = (s: Notification) => {
          if (s.status === "completed" || s.status === "failed" || s.status === "cancelled") {
            off();
            resolve();
          }
        };
        const off = engine.onProgress(created.id, done);
        void engine.getNotification(created.id).then((s) => s && done(s));
      });
      const finished = (await engine.getNotification(created.id))!;
      if (finished.counts.accepted !== created.counts.queued || finished.counts.accepted !== targets) throw new Error(`send ${created.id}: ${JSON.stringify(finished.counts)}`);
      return { rate: finished.counts.accepted / ((last - first) / 1000), accepted: finished.counts.accepted };
    };
    const segment = { kind: "segment", segmentId: null, name: null, tree: TREE, text: null, tagKinds: "trusted", at: null } as const;
    const toSegment = () => send(segmentEngine, segment);
    const toEveryone = () => send(everyoneEngine, undefined);

    // Warm-up: JIT, TLS connections, the encryption threads, both query shapes.
    await toEveryone();
    await toSegment();
    const rounds: SendResult["rounds"] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const segmentFirst = round % 2 === 0;
      const earlier = await (segmentFirst ? toSegment() : toEveryone());
      const later = await (segmentFirst ? toEveryone() : toSegment());
      const [everyone, matched] = segmentFirst ? [later, earlier] : [earlier, later];
      const r = { everyone: Math.round(everyone.rate), segment: Math.round(matched.rate), ratio: round2(matched.rate / everyone.rate) };
      rounds.push(r);
      log(`${dialect}: round ${round}: everyone ${r.everyone} msgs/s, segment ${r.segment} msgs/s (${targets} pushes each); ratio ${r.ratio}`);
    }
    return {
      targets,
      everyoneMsgsPerSecond: median(rounds.map((r) => r.everyone)),
      segmentMsgsPerSecond: median(rounds.map((r) => r.segment)),
      ratio: median(rounds.map((r) => r.ratio)),
      rounds,
    };
  } finally {
    for (const engine of engines) await engine.stop({ graceful: true });
    await transport.close();
    await tagged.drop();
    await plain.drop();
  }
}

/** Subscriptions with real keys (the fake decrypts none, but Sino encrypts each for real), each its own person, in one transaction. */
async function seedSendSubscriptions(database: Database, now: number, count: number, endpointOf: (j: number) => string, keyIdOf: (j: number) => string): Promise<void> {
  await database.db.transaction().execute(async (trx) => {
    for (let i = 1; i <= count; i += 1000) {
      const rows = [];
      for (let j = i; j < Math.min(count + 1, i + 1000); j++) {
        const keys = subscriberKeysFor(KEY_SEED, keyIdOf(j));
        rows.push({
          endpoint: endpointOf(j),
          p256dh: keys.p256dh.toString("base64url"),
          auth: keys.auth.toString("base64url"),
          user_agent: null,
          created_at: now,
          updated_at: now,
          last_seen_at: now,
          person_id: `p${j}`,
          identified_at: now,
        });
      }
      await trx.insertInto("subscriptions").values(rows).execute();
    }
  });
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
function round(value: number): number {
  return Math.round(value * 10) / 10;
}
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

// ── run ────────────────────────────────────────────────────────────────────────────────────────
const counts: Partial<Record<Dialect, CountResult>> = {};
const sends: Partial<Record<Dialect, SendResult>> = {};
const fake = values["no-send"] ? undefined : await spawnFakePushService({ seed: KEY_SEED, decryptSample: 0, logSize: 16 });
try {
  for (const dialect of DIALECTS) {
    counts[dialect] = await measureCount(dialect);
    if (fake !== undefined) sends[dialect] = await measureSend(dialect, (id) => fake.endpointFor(id));
  }
} finally {
  await fake?.close();
}
const result = {
  segments: {
    expression: EXPRESSION,
    count: { subscriptions: COUNT_SUBS, tagsPerPerson: 5, runs: RUNS, targetsMs: { postgres: 1000, sqlite: 2000 }, ...counts },
    send: fake === undefined ? null : { subscriptions: SEND_SUBS, rounds: ROUNDS, targetRatio: 0.95, ...sends },
  },
};
for (const dialect of DIALECTS) {
  const c = counts[dialect]!;
  const s = sends[dialect];
  log(
    `segments ${dialect}: count ${c.medianMs} ms over ${COUNT_SUBS} subscriptions (target < ${dialect === "postgres" ? 1 : 2} s)` +
      (s === undefined ? "" : `; send to ${s.targets} of ${SEND_SUBS}: ${s.segmentMsgsPerSecond} msgs/s vs everyone of as many ${s.everyoneMsgsPerSecond} (ratio ${s.ratio}, target ≥ 0.95)`),
  );
}
process.stdout.write(`${JSON.stringify(result)}\n`);
