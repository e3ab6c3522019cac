import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { loadConfig } from "../src/server/config.js";
import { startServer } from "../src/server/main.js";
import type { RegistrationLoadInput, RegistrationLoadResult } from "./registration-load.js";

export interface RegistrationBenchOptions {
  readonly dialect: "sqlite" | "postgres";
  readonly count: number;
  readonly connections: number;
  readonly postgresUrl: string;
}

export interface RegistrationBench {
  readonly dialect: "sqlite" | "postgres";
  readonly count: number;
  readonly connections: number;
  /** Registrations answered 201 per second of the load run. */
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly created: number;
  readonly failed: number;
  /** Rows in the subscriptions table afterwards: must equal `created`. */
  readonly stored: number;
}

/** The push host the bench's subscriptions point at, and the only one the server allows. */
const BENCH_PUSH_HOST = "push.bench.sino.test";

/**
 * Subscription registration throughput: a real Sino server (`startServer`, as `sino start`
 * runs it, on a fresh SQLite file or PostgreSQL schema, allowing only the bench's push host)
 * takes `count` registrations from autocannon in another process (registration-load.ts). Then the
 * table is counted: every 201 must be exactly one stored row.
 */
export async function measureRegistrations(options: RegistrationBenchOptions): Promise<RegistrationBench> {
  const dir = mkdtempSync(join(tmpdir(), "sino-bench-reg-"));
  const schema = `sino_bench_reg_${process.pid}`;
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
    ...(options.dialect === "postgres" ? { DATABASE_URL: options.postgresUrl, SINO_DATABASE_SCHEMA: schema } : {}),
  });
  const server = await startServer(config);
  try {
    const load = await runLoad({ url: server.url, host: BENCH_PUSH_HOST, count: options.count, connections: options.connections });
    const row = await server.database.db
      .selectFrom("subscriptions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    return {
      dialect: options.dialect,
      count: options.count,
      connections: options.connections,
      perSecond: Math.round(load.status2xx / load.seconds),
      p50Ms: load.latencyMs.p50,
      p99Ms: load.latencyMs.p99,
      created: load.status2xx,
      failed: load.non2xx + load.errors + load.timeouts,
      stored: Number(row.n),
    };
  } finally {
    await server.close();
    if (options.dialect === "postgres") await admin(`drop schema if exists ${schema} cascade`);
    rmSync(dir, { recursive: true, force: true });
  }
}

export function runLoad(input: RegistrationLoadInput): Promise<RegistrationLoadResult> {
  const script = fileURLToPath(new URL("./registration-load.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(input)], { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let result: RegistrationLoadResult | undefined;
    createInterface({ input: child.stdout! }).on("line", (line) => {
      result = JSON.parse(line) as RegistrationLoadResult;
    });
    child.once("error", reject);
    child.once("exit", (code) => (result !== undefined && code === 0 ? resolve(result) : reject(new Error(`registration load generator exited (${code})`))));
  });
}
