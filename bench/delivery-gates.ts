/**
 * `npm run bench:delivery-gates -- [--db both|sqlite|postgres] [--send-subs 20000] [--rounds 3] [--history 2]`
 *
 * The delivery rules (issue 18, "Speed"), on SQLite and PostgreSQL: the fan-out of a marketing
 * send with the engagement gate active (frequency cap and sleeping subscribers: SINO_FREQUENCY_CAP,
 * SINO_SLEEPING_DAYS) beside the same send without it, in the same run, against the fake push
 * service in its own process.
 *
 * Two databases of `--send-subs` subscriptions each, with real keys, and the same history: every
 * subscription already had `--history` (2) marketing pushes accepted in the last 24 hours (rows of
 * earlier sends), so the cap's count per sub-batch reads real rows (its index probes find them)
 * and grows by one each send. The gated engine runs with a cap high enough that nobody is held
 * back (so both sends make exactly the same pushes) and the sleeping rule on (nobody sleeps: all
 * visited today): the filters do all their work, and what is measured is their cost. The two sends
 * alternate `--rounds` (3) times after a warm-up of each, which one goes first alternating by
 * round; each send's msgs/s is taken from its first to its last accepted push, and the ratio
 * gated / plain is the median of the rounds' own ratios (target ≥ 0.95).
 *
 * The gated engine also runs the local-time gate, with a window open all day: it does its work
 * (each target's zone and window) without holding any push back, in the same way.
 *
 * Prints one JSON line: `{ "delivery-gates": … }`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import pg from "pg";
import { createDeliveryEngine, type DeliveryEngine, type DeliveryEngineDeps } from "../src/delivery/engine.js";
import { createLocalTimeGate } from "../src/delivery/gates/local-time-gate.js";
import { DEFAULT_TIME_ZONE } from "../src/shared/time/zoned-time.js";
import { createPushTransport, isTransportFailure, type PushTransport } from "../src/push/transport.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { createDatabase, type Database, type Dialect } from "../src/store/database.js";
import { migrateToLatest } from "../src/store/migrate.js";
import type { Notification } from "../src/store/notifications-repository.js";
import { createRepositories } from "../src/store/repositories.js";
import { subscriberKeysFor } from "../test/support/fake-push/keys.js";
import { spawnFakePushService } from "../test/support/fake-push/remote.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";

const { values } = parseArgs({
  options: {
    db: { type: "string", default: "both" },
    "send-subs": { type: "string", default: "20000" },
    rounds: { type: "string", default: "3" },
    history: { type: "string", default: "2" },
  },
});
const DIALECTS: Dialect[] = values.db === "both" ? ["sqlite", "postgres"] : [values.db as Dialect];
if (!DIALECTS.every((d) => d === "sqlite" || d === "postgres")) throw new Error("--db must be both, sqlite or postgres");
const SEND_SUBS = positive("send-subs");
const ROUNDS = positive("rounds");
const HISTORY = positive("history");
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const KEY_SEED = "sino-bench";
const NOTIFICATION = { title: "Promoção de inverno", body: "Aproveite: ".concat("ofertas para assinantes do Sino. ".repeat(27)).trim() };
/**
 * The gated engine's rules: caps and sleeping on, the cap above what the run reaches (history +
 * warm-ups + rounds), so every target is counted and none held back.
 */
const GATED_RULES: NonNullable<DeliveryEngineDeps["engagement"]> = { frequencyCap: HISTORY + 2 * (ROUNDS + 1) + 1, sleepingDays: 30 };
const log = (line: string): void => void process.stderr.write(`${line}\n`);

function positive(name: string): number {
  const value = Number(values[name as keyof typeof values]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

interface BenchDatabase {
  readonly database: Database;
  drop(): Promise<void>;
}

async function freshDatabase(dialect: Dialect, name: string): Promise<BenchDatabase> {
  let database: Database;
  let drop: () => Promise<void>;
  if (dialect === "sqlite") {
    const dir = mkdtempSync(join(tmpdir(), `sino-bench-${name}-`));
    database = createDatabase({ url: join(dir, "sino.db") });
    drop = async () => {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    };
  } else {
    const schema = `sino_bench_${name}_${process.pid}`;
    const admin = async (text: string) => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      await client.query(text).finally(() => client.end());
    };
    await admin(`drop schema if exists ${schema} cascade`);
    await admin(`create schema ${schema}`);
    database = createDatabase({ url: POSTGRES_URL, schema });
    drop = async () => {
      await database.destroy();
      await admin(`drop schema if exists ${schema} cascade`);
    };
  }
  await migrateToLatest(database);
  return { database, drop };
}

/** Subscriptions with real keys (the fake decrypts none, but Sino encrypts each for real), all visited today. */
async function seedSubscriptions(database: Database, now: number, count: number, endpointOf: (j: number) => string, keyIdOf: (j: number) => string): Promise<void> {
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
          created_at: now - 90 * 86_400_000,
          updated_at: now,
          last_seen_at: now,
          last_visit_at: now - 3_600_000,
        });
      }
      await trx.insertInto("subscriptions").values(rows).execute();
    }
  });
}

/** `--history` earlier marketing sends, each accepted by every subscription within the last 24 h: one INSERT … SELECT each. */
async function seedHistory(database: Database, dialect: Dialect, now: number): Promise<void> {
  for (let h = 1; h <= HISTORY; h++) {
    const at = now - h * 3_600_000;
    const inserted = await database.db
      .insertInto("notifications")
      .values({ title: `Anterior ${h}`, body: null, icon: null, image: null, badge: null, tag: `sino-old-${h}`, url: null, urgency: null, ttl_seconds: 3600, topic: null, audience: '{"kind":"everyone"}', payload: "{}", status: "completed", created_at: at, expires_at: at + 3_600_000, finished_at: at + 60_000, queued: SEND_SUBS, accepted: SEND_SUBS })
      .returning("id")
      .executeTakeFirstOrThrow();
    await database.db
      .insertInto("notification_recipients")
      .columns(["notification_id", "subscription_id", "person_id", "site_id", "outcome", "reason", "attempts", "updated_at"])
      .expression((eb) =>
        eb
          .selectFrom("subscriptions")
          .select([
            sql<number>`${sql.lit(Number(inserted.id))}`.as("notification_id"),
            "id",
            "person_id",
            "site_id",
            sql<string>`${sql.lit("accepted")}`.as("outcome"),
            sql<null>`null`.as("reason"),
            sql<number>`${sql.lit(1)}`.as("attempts"),
            sql<number>`${sql.lit(at + 30_000)}`.as("updated_at"),
          ]),
      )
      .execute();
  }
  await (dialect === "postgres" ? sql`vacuum analyze`.execute(database.db) : sql`analyze`.execute(database.db));
}

interface SendResult {
  readonly targets: number;
  readonly plainMsgsPerSecond: number;
  readonly gatedMsgsPerSecond: number;
  readonly ratio: number;
  readonly rounds: Array<{ plain: number; gated: number; ratio: number }>;
}

async function measure(dialect: Dialect, endpointFor: (id: string) => string): Promise<SendResult> {
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
  const gatedDb = await freshDatabase(dialect, "gated");
  const plainDb = await freshDatabase(dialect, "ungated");
  const gatedRepositories = createRepositories(gatedDb.database);
  // The local-time gate with a window open all day: it sorts every target by its zone and window
  // and holds none back, so both sends still make the same pushes.
  const localTime = createLocalTimeGate({ defaultTimeZone: DEFAULT_TIME_ZONE, defaultWindow: "00:00-00:00", sites: () => gatedRepositories.sites.listPlain() });
  const gatedEngine = createDeliveryEngine({ repositories: gatedRepositories, transport, vapid, options: {}, engagement: GATED_RULES, localTime });
  const plainEngine = createDeliveryEngine({ repositories: createRepositories(plainDb.database), transport, vapid, options: {} });
  try {
    const now = Date.now();
    const seedStarted = performance.now();
    await seedSubscriptions(gatedDb.database, now, SEND_SUBS, (j) => endpointFor(`g${j}`), (j) => `g${j}`);
    await seedSubscriptions(plainDb.database, now, SEND_SUBS, (j) => endpointFor(`p${j}`), (j) => `p${j}`);
    await seedHistory(gatedDb.database, dialect, now);
    await seedHistory(plainDb.database, dialect, now);
    log(`${dialect}: 2 × ${SEND_SUBS} subscriptions with real keys and ${HISTORY} accepted marketing pushes each in the last 24 h, seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);
    gatedEngine.start();
    plainEngine.start();

    const send = async (engine: DeliveryEngine): Promise<number> => {
      first = 0;
      last = 0;
      const created = await engine.createNotification(NOTIFICATION);
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
      // Both sends make exactly the same pushes: nobody limited, nobody asleep.
      if (finished.counts.accepted !== SEND_SUBS || finished.counts.limited !== 0 || finished.counts.asleep !== 0) throw new Error(`send ${created.id}: ${JSON.stringify(finished.counts)}`);
      return finished.counts.accepted / ((last - first) / 1000);
    };

    await send(plainEngine);
    await send(gatedEngine);
    const rounds: SendResult["rounds"] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const gatedFirst = round % 2 === 0;
      const earlier = await send(gatedFirst ? gatedEngine : plainEngine);
      const later = await send(gatedFirst ? plainEngine : gatedEngine);
      const [plain, gated] = gatedFirst ? [later, earlier] : [earlier, later];
      const r = { plain: Math.round(plain), gated: Math.round(gated), ratio: round2(gated / plain) };
      rounds.push(r);
      log(`${dialect}: round ${round}: without filters ${r.plain} msgs/s, with caps, sleeping and windows ${r.gated} msgs/s (${SEND_SUBS} pushes each); ratio ${r.ratio}`);
    }
    return {
      targets: SEND_SUBS,
      plainMsgsPerSecond: median(rounds.map((r) => r.plain)),
      gatedMsgsPerSecond: median(rounds.map((r) => r.gated)),
      ratio: median(rounds.map((r) => r.ratio)),
      rounds,
    };
  } finally {
    await gatedEngine.stop({ graceful: true });
    await plainEngine.stop({ graceful: true });
    await transport.close();
    await gatedDb.drop();
    await plainDb.drop();
  }
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

const sends: Partial<Record<Dialect, SendResult>> = {};
const fake = await spawnFakePushService({ seed: KEY_SEED, decryptSample: 0, logSize: 16 });
try {
  for (const dialect of DIALECTS) sends[dialect] = await measure(dialect, (id) => fake.endpointFor(id));
} finally {
  await fake.close();
}
for (const dialect of DIALECTS) {
  const s = sends[dialect]!;
  log(`delivery-gates ${dialect}: with caps, sleeping and windows ${s.gatedMsgsPerSecond} msgs/s vs without ${s.plainMsgsPerSecond} (ratio ${s.ratio}, target ≥ 0.95)`);
}
process.stdout.write(`${JSON.stringify({ "delivery-gates": { subscriptions: SEND_SUBS, rounds: ROUNDS, history: HISTORY, rules: GATED_RULES, targetRatio: 0.95, ...sends } })}\n`);
