/**
 * `npm run bench:webhooks -- [--subs 20000] [--db sqlite|postgres] [--rounds 3] [--no-dispatcher] [--while-pushing 1]`
 *
 * Outbound webhooks beside a send (issue 17, "Speed and scale"): a send to N subscriptions (the
 * fake push service in its own process, as bench/run.ts) with one webhook subscribed to
 * `recipient.accepted`, against the same send with no webhook; the webhook dispatcher delivers
 * to a local https receiver in its own process while the send runs, as `sino start` would.
 * Prints the send's msgs/s both ways (their ratio; target ≥ 0.9) and the webhook deliveries per
 * second, then one JSON line of every figure.
 *
 * The `recipient.accepted` events are queued by the delivery checkpoints, inside each sub-batch's
 * transaction, as in production.
 *
 * Rounds alternate: without webhooks, then with, `--rounds` times; the ratio is the median of the
 * rounds' own ratios (the machine's speed drifts over minutes, as run.ts explains).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import pg from "pg";
import { request } from "undici";
import { createDeliveryEngine } from "../src/delivery/engine.js";
import { createWebhookDispatcher } from "../src/delivery/webhooks/dispatcher.js";
import { newWebhookSecret } from "../src/delivery/webhooks/sign.js";
import { createWebhookClient } from "../src/delivery/webhooks/webhook-client.js";
import { createPushTransport, isTransportFailure, type PushTransport } from "../src/push/transport.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { createDatabase, type Database } from "../src/store/database.js";
import { migrateToLatest } from "../src/store/migrate.js";
import type { Notification } from "../src/store/notifications-repository.js";
import { createRepositories } from "../src/store/repositories.js";
import { subscriberKeysFor } from "../test/support/fake-push/keys.js";
import { spawnFakePushService } from "../test/support/fake-push/remote.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";

const { values } = parseArgs({
  options: {
    subs: { type: "string", default: "20000" },
    db: { type: "string", default: "sqlite" },
    rounds: { type: "string", default: "3" },
    // Queue the events but deliver none: what queuing alone costs the send (the drain is not measured).
    "no-dispatcher": { type: "boolean", default: false },
    // Requests per webhook while pushes are in flight (the runtime uses 1).
    "while-pushing": { type: "string", default: "1" },
  },
});
const N = Number(values.subs);
const ROUNDS = Number(values.rounds);
const dialect = values.db;
if (dialect !== "sqlite" && dialect !== "postgres") throw new Error("--db must be sqlite or postgres");
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const KEY_SEED = "sino-bench";
const log = (line: string): void => void process.stderr.write(`${line}\n`);
const NOTIFICATION = { title: "Promoção de inverno", body: "Aproveite: ".concat("ofertas para assinantes do Sino. ".repeat(27)).trim() };
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

const fake = await spawnFakePushService({ seed: KEY_SEED, decryptSample: 0, logSize: 16 });
const tls = loadTestTls();
const receiverProcess = spawn(process.execPath, ["--import", "tsx", "bench/webhook-receiver-process.ts"], { stdio: ["ignore", "pipe", "inherit"] });
const receiverOrigin = await new Promise<string>((resolve) => createInterface({ input: receiverProcess.stdout! }).once("line", resolve));
const receiverStats = async () => (await (await request(`${receiverOrigin}/stats`, { dispatcher: statsAgent })).body.json()) as { count: number; first: number; last: number };
const { Agent } = await import("undici");
const statsAgent = new Agent({ connect: { ca: tls.ca } });

// ── a fresh database ─────────────────────────────────────────────────────────────────────────
let database: Database;
let dropDatabase: () => Promise<void>;
if (dialect === "sqlite") {
  const dir = mkdtempSync(join(tmpdir(), "sino-bench-webhooks-"));
  database = createDatabase({ url: join(dir, "sino.db") });
  dropDatabase = async () => {
    await database.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
} else {
  const schema = `sino_bench_wh_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query(text).finally(() => client.end());
  };
  await admin(`create schema ${schema}`);
  database = createDatabase({ url: POSTGRES_URL, schema });
  dropDatabase = async () => {
    await database.destroy();
    await admin(`drop schema if exists ${schema} cascade`);
  };
}
await migrateToLatest(database);

async function seed(count: number): Promise<void> {
  const now = Date.now();
  for (let i = 0; i < count; i += 1000) {
    const rows = [];
    for (let j = i; j < Math.min(count, i + 1000); j++) {
      const keys = subscriberKeysFor(KEY_SEED, `s${j}`);
      rows.push({ endpoint: fake.endpointFor(`s${j}`), p256dh: keys.p256dh.toString("base64url"), auth: keys.auth.toString("base64url"), user_agent: null, created_at: now, updated_at: now, last_seen_at: now });
    }
    await database.db.insertInto("subscriptions").values(rows).execute();
  }
}
await seed(N);

// ── the engine as `sino start` builds it ──────────────────────────────────────────────────────
const repositories = createRepositories(database);
let first = 0;
let last = 0;
const inner = createPushTransport({ policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 }, ca: tls.ca });
const transport: PushTransport = {
  async send(req) {
    const result = await inner.send(req);
    if (!isTransportFailure(result) && result.status < 300) {
      const now = performance.now();
      if (first === 0) first = now;
      last = now;
    }
    return result;
  },
  stats: () => inner.stats(),
  close: () => inner.close(),
};
const engine = createDeliveryEngine({ repositories, transport, vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:bench@sino.example.com" }), options: {} });
engine.start();
const webhookClient = createWebhookClient({ allowPrivateAddresses: true, timeoutMs: 10_000, connectionsPerOrigin: 8, ca: tls.ca });
const dispatcher = createWebhookDispatcher({
  repository: repositories.webhooks,
  client: webhookClient,
  clock: Date.now,
  logger: silent,
  // As the runtime wires it (src/delivery/runtime.ts).
  pushesBusy: () => inner.stats().inFlight > 0,
  options: { maxInFlight: 64, maxInFlightPerWebhook: 8, maxInFlightPerWebhookWhilePushing: Number(values["while-pushing"]), pollMs: 1000, leaseMs: 180_000, retentionDays: 7 },
});
dispatcher.start();

async function send(): Promise<{ msgsPerSecond: number; accepted: number }> {
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
  return { msgsPerSecond: finished.counts.accepted / ((last - first) / 1000), accepted: finished.counts.accepted };
}

async function pendingMessages(): Promise<number> {
  const row = await database.db.selectFrom("webhook_messages").select((eb) => eb.fn.countAll<number | string>().as("n")).where("status", "=", "pending").executeTakeFirstOrThrow();
  return Number(row.n);
}

// Warm-up without webhooks, then with one (which also checks that the checkpoints queue events).
await send();
const hook = (await repositories.webhooks.create({ url: `${receiverOrigin}/in`, description: "bench", events: ["recipient.accepted"], secret: newWebhookSecret() }, Date.now(), 20))!;
await send();
if ((await database.db.selectFrom("webhook_messages").select("id").limit(1).execute()).length === 0) throw new Error("the send queued no recipient.accepted event");
// Let the warm-up's messages drain before timing.
while ((await pendingMessages()) > 0) await new Promise((r) => setTimeout(r, 200));
if (values["no-dispatcher"]) await dispatcher.stop({ graceful: true });
await repositories.webhooks.update(hook.id, { enabled: false }, Date.now());

const rounds: Array<{ without: number; with: number; ratio: number; webhookPerSecond: number; webhookDrainMs: number }> = [];
for (let round = 1; round <= ROUNDS; round++) {
  await repositories.webhooks.update(hook.id, { enabled: false }, Date.now());
  const without = await send();
  await repositories.webhooks.update(hook.id, { enabled: true }, Date.now());
  const before = await receiverStats();
  const started = Date.now();
  const withHooks = await send();
  const expected = before.count + withHooks.accepted;
  for (;;) {
    if (values["no-dispatcher"]) break;
    const stats = await receiverStats();
    if (stats.count >= expected || Date.now() - started > 300_000) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const after = await receiverStats();
  const delivered = after.count - before.count;
  // From the first delivery of this round to the last: the dispatcher's own rate while the send ran and after.
  const webhookPerSecond = delivered / ((after.last - Math.max(before.last, started)) / 1000);
  const r = { without: without.msgsPerSecond, with: withHooks.msgsPerSecond, ratio: withHooks.msgsPerSecond / without.msgsPerSecond, webhookPerSecond, webhookDrainMs: after.last - started };
  rounds.push(r);
  log(
    `round ${round}: send ${Math.round(r.without)} msgs/s without webhooks, ${Math.round(r.with)} with (ratio ${r.ratio.toFixed(2)}); ` +
      `${delivered} webhook deliveries at ${Math.round(webhookPerSecond)}/s, the last ${r.webhookDrainMs} ms after the send started`,
  );
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const result = {
  webhooks: {
    subs: N,
    db: dialect,
    sendMsgsPerSecondWithout: Math.round(median(rounds.map((r) => r.without))),
    sendMsgsPerSecondWith: Math.round(median(rounds.map((r) => r.with))),
    ratio: Math.round(median(rounds.map((r) => r.ratio)) * 100) / 100,
    webhookDeliveriesPerSecond: Math.round(median(rounds.map((r) => r.webhookPerSecond))),
    webhookDrainMs: values["no-dispatcher"] ? null : Math.round(median(rounds.map((r) => r.webhookDrainMs))),
    whilePushing: Number(values["while-pushing"]),
    rounds,
  },
};
log(`webhooks: ratio ${result.webhooks.ratio} (target ≥ 0.9), ${result.webhooks.webhookDeliveriesPerSecond} deliveries/s`);
process.stdout.write(`${JSON.stringify(result)}\n`);

await dispatcher.stop({ graceful: true });
await engine.stop({ graceful: true });
await transport.close();
await webhookClient.close();
await statsAgent.close();
receiverProcess.kill("SIGTERM");
await fake.close();
await dropDatabase();
