/**
 * `npx tsx bench/delivery-gates-steps.ts [--db sqlite|postgres] [--subs 20000] [--passes 3]`
 *
 * What each delivery gate costs a sub-batch of 250, in CPU of this process (no push, no push
 * service: the range pass's reads and decisions only), beside the plain range query: the range
 * query with the cap's counts in it, the engagement gate's decision, the local-time gate's sort,
 * and the cap's own query (what a caller without the counts pays). Every subscription has two
 * accepted marketing pushes in the last 24 h, as in bench/delivery-gates.ts. The first pass warms
 * up; the others are averaged. On PostgreSQL the figure is this process's side only (building the
 * query, reading the rows): the server's own CPU is not in it. Prints one JSON line:
 * `{ "delivery-gates-steps": … }`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import pg from "pg";
import { cachedSiteCaps, createEngagementGate } from "../src/delivery/gates/engagement-gate.js";
import { createLocalTimeGate } from "../src/delivery/gates/local-time-gate.js";
import { DEFAULT_TIME_ZONE } from "../src/shared/time/zoned-time.js";
import { createDatabase, type Database } from "../src/store/database.js";
import { CAP_WINDOW_MS } from "../src/store/delivery-gates-repository.js";
import type { DeliveryTarget } from "../src/store/delivery-queue-repository.js";
import { migrateToLatest } from "../src/store/migrate.js";
import { createRepositories } from "../src/store/repositories.js";

const { values } = parseArgs({ options: { db: { type: "string", default: "sqlite" }, subs: { type: "string", default: "20000" }, passes: { type: "string", default: "3" } } });
const dialect = values.db;
if (dialect !== "sqlite" && dialect !== "postgres") throw new Error("--db must be sqlite or postgres");
const SUBS = Number(values.subs);
const PASSES = Math.max(2, Number(values.passes));
const BATCH = 250;
const POSTGRES_URL = process.env.SINO_BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const DAY_MS = 86_400_000;

async function admin(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(text).finally(() => client.end());
}

const dir = mkdtempSync(join(tmpdir(), "sino-gates-steps-"));
const schema = `sino_gates_steps_${process.pid}`;
if (dialect === "postgres") await admin(`create schema ${schema}`);
const database: Database = dialect === "sqlite" ? createDatabase({ url: join(dir, "sino.db") }) : createDatabase({ url: POSTGRES_URL, schema });
try {
  await migrateToLatest(database);
  const now = Date.now();
  for (let i = 1; i <= SUBS; i += 1000) {
    const rows = [];
    for (let j = i; j < Math.min(SUBS + 1, i + 1000); j++) {
      rows.push({ endpoint: `https://127.0.0.1/push/${j}`, p256dh: "B".padEnd(87, "a"), auth: "a".repeat(22), user_agent: null, created_at: now - 90 * DAY_MS, updated_at: now, last_seen_at: now, last_visit_at: now - 3_600_000 });
    }
    await database.db.insertInto("subscriptions").values(rows).execute();
  }
  const sendRow = (title: string, at: number, status: "completed" | "sending") => ({ title, body: null, icon: null, image: null, badge: null, tag: title, url: null, urgency: null, ttl_seconds: 3600, topic: null, audience: '{"kind":"everyone"}', payload: "{}", status, created_at: at, expires_at: at + 3_600_000, finished_at: status === "completed" ? at + 60_000 : null, queued: SUBS, accepted: 0 });
  for (let h = 1; h <= 2; h++) {
    const at = now - h * 3_600_000;
    const earlier = await database.db.insertInto("notifications").values(sendRow(`old-${h}`, at, "completed")).returning("id").executeTakeFirstOrThrow();
    await sql`insert into notification_recipients (notification_id, subscription_id, person_id, site_id, outcome, reason, attempts, updated_at)
      select ${sql.lit(Number(earlier.id))}, id, person_id, site_id, 'accepted', null, 1, ${sql.lit(at + 30_000)} from subscriptions`.execute(database.db);
  }
  await (dialect === "postgres" ? sql`vacuum analyze`.execute(database.db) : sql`analyze`.execute(database.db));
  const repositories = createRepositories(database);
  const created = await database.db.insertInto("notifications").values(sendRow("now", now, "sending")).returning("id").executeTakeFirstOrThrow();
  const send = (await repositories.notifications.findById(Number(created.id)))!;
  const gate = createEngagementGate({ repository: repositories.deliveryGates, rules: { frequencyCap: 20, sleepingDays: 30 }, siteCaps: cachedSiteCaps(() => repositories.sites.listPlain(), Date.now) });
  const localTime = createLocalTimeGate({ defaultTimeZone: DEFAULT_TIME_ZONE, defaultWindow: "00:00-00:00", sites: () => repositories.sites.listPlain() });
  const job = { id: 0, notificationId: send.id, cursor: 0, toId: SUBS };
  const list = (cursor: number, capSince?: number) => repositories.deliveryQueue.listTargets(job, cursor, BATCH, { people: false, capSince });
  const cpuMs = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1000;
  };
  // Each step over the whole table, sub-batch by sub-batch; the gates' steps get the targets read beforehand.
  const stepsOf = (batches: readonly DeliveryTarget[][], counted: readonly DeliveryTarget[][]) =>
    ({
      "range query": async (i: number) => void (await list(i * BATCH)),
      "range query with the cap's counts": async (i: number) => void (await list(i * BATCH, now - CAP_WINDOW_MS)),
      "cap's own query (targets without counts)": async (i: number) => void (await repositories.deliveryGates.recentMarketingCounts(batches[i]!.map((t) => t.id), now - CAP_WINDOW_MS)),
      "engagement gate (counts in the targets)": async (i: number) => void (await gate.check(send, counted[i]!, now)),
      "local-time gate": async (i: number) => void (await localTime.sort(send, counted[i]!, now)),
    }) as const;
  const batchCount = Math.ceil(SUBS / BATCH);
  const batches: DeliveryTarget[][] = [];
  const counted: DeliveryTarget[][] = [];
  for (let i = 0; i < batchCount; i++) {
    batches.push(await list(i * BATCH));
    counted.push(await list(i * BATCH, now - CAP_WINDOW_MS));
  }
  const steps = stepsOf(batches, counted);
  const totals = new Map<string, number>();
  for (let pass = 0; pass < PASSES; pass++) {
    for (const [name, step] of Object.entries(steps)) {
      const started = cpuMs();
      for (let i = 0; i < batchCount; i++) await step(i);
      if (pass > 0) totals.set(name, (totals.get(name) ?? 0) + cpuMs() - started);
    }
  }
  const perBatch = Object.fromEntries([...totals].map(([name, ms]) => [name, Math.round((ms / ((PASSES - 1) * batchCount)) * 1000) / 1000]));
  for (const [name, ms] of Object.entries(perBatch)) process.stderr.write(`${dialect}: ${name}: ${ms} ms CPU a sub-batch of ${BATCH}\n`);
  process.stdout.write(`${JSON.stringify({ "delivery-gates-steps": { db: dialect, subscriptions: SUBS, batch: BATCH, cpuMsPerBatch: perBatch } })}\n`);
} finally {
  await database.destroy();
  rmSync(dir, { recursive: true, force: true });
  if (dialect === "postgres") await admin(`drop schema if exists ${schema} cascade`);
}
