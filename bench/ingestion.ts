import { spawn } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { loadConfig } from "../src/server/config.js";
import { startServer } from "../src/server/main.js";
import { API_ROUTES } from "../src/shared/api/routes.js";
import { runLoad } from "./registration.js";

/**
 * Service-worker reports per second against a running Sino (`startServer`, as `sino start` runs
 * it, on a fresh SQLite file or PostgreSQL schema): `subs` real subscriptions (P-256 keys, auth
 * secrets) and one sent notification are stored first (not timed), then autocannon in its own
 * process sends `POST /api/v1/events` (shown, clicked, closed for each subscription, each a new
 * row) with `connections` at a time. Afterwards the table is counted: every 204 is one row.
 */
export interface EventsBench {
  readonly dialect: "sqlite" | "postgres";
  readonly reports: number;
  readonly connections: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly answered: number;
  readonly failed: number;
  /** Rows in notification_events afterwards: must equal `answered`. */
  readonly stored: number;
  /** Transactions the server's group commit wrote them in. */
  readonly transactions: number;
}

export interface EventsBenchOptions {
  readonly dialect: "sqlite" | "postgres";
  readonly subs: number;
  readonly connections: number;
  readonly postgresUrl: string;
}

const BENCH_PUSH_HOST = "push.bench.sino.test";
const TYPES = ["shown", "clicked", "closed"] as const;

export async function measureEvents(options: EventsBenchOptions): Promise<EventsBench> {
  const dir = mkdtempSync(join(tmpdir(), "sino-bench-ev-"));
  const schema = `sino_bench_ev_${process.pid}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: options.postgresUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  if (options.dialect === "postgres") await admin(`create schema ${schema}`);
  const config = loadConfig({
    SINO_PORT: "0",
    SINO_HOST: "127.0.0.1",
    SINO_DATA_DIR: dir,
    SINO_WEB_DIR: join(dir, "no-web-app"),
    SINO_LOG_LEVEL: "error",
    SINO_PUSH_ALLOWED_HOSTS: BENCH_PUSH_HOST,
    SINO_WORKER_EMBEDDED: "false",
    ...(options.dialect === "postgres" ? { DATABASE_URL: options.postgresUrl, SINO_DATABASE_SCHEMA: schema } : {}),
  });
  const server = await startServer(config);
  try {
    const { db } = server.database;
    const now = Date.now();
    const subscriptions = Array.from({ length: options.subs }, (_, i) => {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      return {
        endpoint: `https://${BENCH_PUSH_HOST}/send/ev-${i}-${randomBytes(6).toString("base64url")}`,
        p256dh: ecdh.getPublicKey().toString("base64url"),
        auth: randomBytes(16).toString("base64url"),
        user_agent: null,
        created_at: now,
        updated_at: now,
        last_seen_at: now,
      };
    });
    for (let i = 0; i < subscriptions.length; i += 1000) await db.insertInto("subscriptions").values(subscriptions.slice(i, i + 1000)).execute();
    const notification = await db
      .insertInto("notifications")
      .values({ title: "Bench", body: null, icon: null, image: null, badge: null, tag: "sino-bench", url: null, urgency: null, ttl_seconds: 3600, topic: null, audience: "all", payload: "{}", status: "completed", created_at: now, expires_at: now + 3_600_000, finished_at: now, queued: options.subs })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Each report a new row: every subscription reports shown, clicked and closed, in that order
    // per subscription, spread so that consecutive requests come from different subscriptions.
    const bodies = TYPES.flatMap((type) =>
      subscriptions.map((s) => JSON.stringify({ notificationId: String(notification.id), type, endpoint: s.endpoint, auth: s.auth })),
    );
    const bodiesFile = join(dir, "bodies.json");
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const before = server.ingestion.stats().events.batches;
    const load = await runLoad({ url: server.url, host: BENCH_PUSH_HOST, count: bodies.length, connections: options.connections, path: API_ROUTES.events, bodiesFile });
    const transactions = server.ingestion.stats().events.batches - before;
    const row = await db.selectFrom("notification_events").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
    return {
      dialect: options.dialect,
      reports: bodies.length,
      connections: options.connections,
      perSecond: Math.round(load.status2xx / load.seconds),
      p50Ms: load.latencyMs.p50,
      p99Ms: load.latencyMs.p99,
      answered: load.status2xx,
      failed: load.non2xx + load.errors + load.timeouts,
      stored: Number(row.n),
      transactions,
    };
  } finally {
    await server.close();
    if (options.dialect === "postgres") await admin(`drop schema if exists ${schema} cascade`);
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FloorBench {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/**
 * The bare Fastify floor (ingestion-floor-server.ts, in its own process as Sino is in production
 * terms: one server process, the load generator in another): the same registration bodies, the
 * same connections, answered 201 with no work at all.
 */
export async function measureFloor(options: { count: number; connections: number }): Promise<FloorBench> {
  const script = fileURLToPath(new URL("./ingestion-floor-server.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      child.once("exit", (code) => reject(new Error(`floor server exited (${code})`)));
    });
    const load = await runLoad({ url, host: BENCH_PUSH_HOST, count: options.count, connections: options.connections, path: "/floor" });
    return { perSecond: Math.round(load.status2xx / load.seconds), p50Ms: load.latencyMs.p50, p99Ms: load.latencyMs.p99 };
  } finally {
    child.kill("SIGTERM");
  }
}
