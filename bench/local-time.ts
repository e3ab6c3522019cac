/**
 * `npm run bench:local-time -- [--db both|sqlite|postgres] [--subs 10000] [--rounds 3]`
 *
 * The local-time gate's cost on the fan-out (issue 18, "Speed"): the same marketing send to `--subs`
 * subscriptions with real keys, pushed to the fake push service in its own process, once by an
 * engine with the gate (createLocalTimeGate, as `sino start` wires it) and once by an engine
 * without it, alternating `--rounds` times (which goes first alternates, so a drift of the
 * machine's speed favours neither). Each msgs/s is taken from the send's first to its last accepted
 * push. The subscribers are spread over 8 time zones and one in ten has quiet hours, all chosen
 * open right now, so both sends push to every target and only the gate's work differs: the sites
 * read once a minute, one Intl computation per distinct (zone, window) per sub-batch, a map lookup
 * per target. The ratio gate / no gate is the median of the rounds' own (target ≥ 0.95).
 *
 * The gates helper's filters-on/off scenario of `npm run bench` can enable it the same way: pass
 * `localTime: createLocalTimeGate({ defaultTimeZone, sites })` to createDeliveryEngine.
 * Prints one JSON line: `{ localTime }`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createDeliveryEngine, type DeliveryEngine } from "../src/delivery/engine.js";
import { createLocalTimeGate } from "../src/delivery/gates/local-time-gate.js";
import { createPushTransport, isTransportFailure, type PushTransport } from "../src/push/transport.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { formatMinuteOfDay } from "../src/shared/time/daily-window.js";
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
    subs: { type: "string", default: "10000" },
    rounds: { type: "string", default: "3" },
  },
});
const DIALECTS: Dialect[] = values.db === "both" ? ["sqlite", "postgres"] : [values.db as Dialect];
const SUBS = Number(values.subs);
const ROUNDS = Number(values.rounds);
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const KEY_SEED = "sino-bench";
const ZONES = ["America/Sao_Paulo", "America/Manaus", "America/Noronha", "America/Rio_Branco", "Europe/Lisbon", "America/New_York", "Asia/Tokyo", "Africa/Luanda"];
const NOTIFICATION = { title: "Promoção de inverno", body: "Aproveite: ".concat("ofertas para assinantes do Sino. ".repeat(27)).trim(), ttlSeconds: 86_400 };
const log = (line: string): void => void process.stderr.write(`${line}\n`);

/** The minute of the day it is now in `zone`. */
function minuteNow(zone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", hour: "numeric", minute: "numeric" }).formatToParts(Date.now());
  return Number(parts.find((p) => p.type === "hour")!.value) * 60 + Number(parts.find((p) => p.type === "minute")!.value);
}

/** Quiet hours that end before now and start well after it, in `zone`: open for the whole run. */
function quietHoursOpenNow(zone: string, variant: number): string {
  const now = minuteNow(zone);
  return `${formatMinuteOfDay((now + 180 + variant * 10) % 1440)}-${formatMinuteOfDay((now + 1440 - 120) % 1440)}`;
}

async function freshDatabase(dialect: Dialect, name: string): Promise<{ database: Database; drop: () => Promise<void> }> {
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

async function seed(database: Database, endpointFor: (id: string) => string, prefix: string): Promise<void> {
  const now = Date.now();
  await database.db.transaction().execute(async (trx) => {
    for (let i = 0; i < SUBS; i += 1000) {
      const rows = [];
      for (let j = i; j < Math.min(SUBS, i + 1000); j++) {
        const keys = subscriberKeysFor(KEY_SEED, `${prefix}${j}`);
        const zone = ZONES[j % ZONES.length]!;
        rows.push({
          endpoint: endpointFor(`${prefix}${j}`),
          p256dh: keys.p256dh.toString("base64url"),
          auth: keys.auth.toString("base64url"),
          user_agent: null,
          created_at: now,
          updated_at: now,
          last_seen_at: now,
          // One in twenty reported no zone: the site's, then the server's.
          time_zone: j % 20 === 7 ? null : zone,
          quiet_hours: j % 10 === 3 ? quietHoursOpenNow(zone, j % 5) : null,
        });
      }
      await trx.insertInto("subscriptions").values(rows).execute();
    }
  });
}

function median(list: readonly number[]): number {
  return [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
}

async function measure(dialect: Dialect, endpointFor: (id: string) => string) {
  let first = 0;
  let last = 0;
  const inner: PushTransport = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: loadTestTls().ca });
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
  const gated = await freshDatabase(dialect, "ltgate");
  const plain = await freshDatabase(dialect, "ltplain");
  await seed(gated.database, endpointFor, "g");
  await seed(plain.database, endpointFor, "p");
  const repositories = createRepositories(gated.database);
  // The server's default window, all day: every target is open, by its quiet hours or the window.
  const gate = createLocalTimeGate({ defaultTimeZone: "America/Sao_Paulo", defaultWindow: "00:00-00:00", sites: () => repositories.sites.listPlain() });
  const withGate = createDeliveryEngine({ repositories, transport, vapid, localTime: gate });
  const without = createDeliveryEngine({ repositories: createRepositories(plain.database), transport, vapid });
  try {
    for (const engine of [withGate, without]) engine.start();
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
      if (finished.counts.accepted !== SUBS) throw new Error(`send ${created.id}: ${JSON.stringify(finished.counts)}`);
      return SUBS / ((last - first) / 1000);
    };
    await send(without);
    await send(withGate);
    const rounds: { without: number; withGate: number; ratio: number }[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const gateFirst = round % 2 === 0;
      const a = await send(gateFirst ? withGate : without);
      const b = await send(gateFirst ? without : withGate);
      const [off, on] = gateFirst ? [b, a] : [a, b];
      const r = { without: Math.round(off), withGate: Math.round(on), ratio: Math.round((on / off) * 100) / 100 };
      rounds.push(r);
      log(`${dialect}: round ${round}: without the gate ${r.without} msgs/s, with it ${r.withGate} msgs/s (${SUBS} pushes each); ratio ${r.ratio}`);
    }
    return { withoutMsgsPerSecond: median(rounds.map((r) => r.without)), withGateMsgsPerSecond: median(rounds.map((r) => r.withGate)), ratio: median(rounds.map((r) => r.ratio)), rounds };
  } finally {
    for (const engine of [withGate, without]) await engine.stop({ graceful: true });
    await transport.close();
    await gated.drop();
    await plain.drop();
  }
}

const results: Partial<Record<Dialect, Awaited<ReturnType<typeof measure>>>> = {};
const fake = await spawnFakePushService({ seed: KEY_SEED, decryptSample: 0, logSize: 16 });
try {
  for (const dialect of DIALECTS) results[dialect] = await measure(dialect, (id) => fake.endpointFor(id));
} finally {
  await fake.close();
}
process.stdout.write(`${JSON.stringify({ localTime: { subscriptions: SUBS, rounds: ROUNDS, zones: ZONES.length, targetRatio: 0.95, ...results } })}\n`);
