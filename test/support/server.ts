import { resolve } from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { loadConfig } from "../../src/server/config.js";
import { startServer } from "../../src/server/main.js";
import type { Metrics } from "../../src/server/metrics/metrics.js";
import type { DeliveryEngine } from "../../src/delivery/engine.js";
import type { Ingestion } from "../../src/server/ingestion/ingestion.js";
import type { Database, Dialect } from "../../src/store/database.js";
import { createTestDatabaseLocation, type TestDatabaseLocation } from "./db.js";

export interface TestServerOptions {
  /** Which database the server runs on (a fresh one per server); default sqlite. */
  readonly dialect?: Dialect;
  /** Extra environment variables, on top of (and overriding) the test defaults below. */
  readonly env?: Record<string, string>;
  /**
   * Reuse an existing database instead of a fresh one (e.g. a restart, or two servers sharing
   * one PostgreSQL schema). The caller then owns it and drops it.
   */
  readonly location?: TestDatabaseLocation;
  /** Where the server logs (default: a pino logger at SINO_LOG_LEVEL). */
  readonly logger?: FastifyBaseLogger;
  /** The server's metrics registry (default: a new one, as `sino start` makes). */
  readonly metrics?: Metrics;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`: the address the server is bound to, for API calls from Node. */
  readonly url: string;
  /** `http://localhost:<port>`: the same server, as a browser should open it (a secure context). */
  readonly baseUrl: string;
  /** The server's own database handle (Kysely in `database.db`), for checking what was stored. */
  readonly database: Database;
  /** The server's delivery engine (sends; its lanes run unless SINO_WORKER_EMBEDDED=false). */
  readonly delivery: DeliveryEngine;
  /** The server's group-committed write paths (their batch counts). */
  readonly ingestion: Ingestion;
  readonly location: TestDatabaseLocation;
  /** The server's metrics registry. */
  readonly metrics: Metrics;
  /** The SINO_METRICS_LISTEN listener's `http://host:port`, when configured. */
  readonly metricsUrl: string | undefined;
  /** Stops the server and drops its database (unless it was given one). */
  close(): Promise<void>;
}

/**
 * The real application on 127.0.0.1 and a free port, on a fresh SQLite file or PostgreSQL schema,
 * serving the built web app from dist/web. Push endpoints on 127.0.0.1 are allowed (a fake push
 * service runs there) — only here, never by default.
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dialect = options.location?.dialect ?? options.dialect ?? "sqlite";
  const fresh = options.location === undefined ? await createTestDatabaseLocation(dialect) : undefined;
  const location = options.location ?? fresh!.location;
  try {
    const config = loadConfig({
      SINO_PORT: "0",
      SINO_HOST: "127.0.0.1",
      SINO_PUBLIC_URL: "http://localhost:8080",
      DATABASE_URL: location.url,
      SINO_DATABASE_POOL_SIZE: "5",
      SINO_PUSH_ALLOWED_HOSTS: "127.0.0.1,localhost,fcm.googleapis.com,updates.push.services.mozilla.com,*.push.services.mozilla.com,web.push.apple.com,*.push.apple.com,*.notify.windows.com",
      SINO_PUSH_ALLOW_PRIVATE: "true",
      SINO_LOG_LEVEL: process.env.SINO_TEST_LOG_LEVEL ?? "warn",
      SINO_WEB_DIR: resolve("dist/web"),
      // Tests run at any hour: marketing is not held for a notification window unless a test sets one.
      SINO_SEND_WINDOW: "00:00-00:00",
      // gates: no frequency cap and nobody sleeping unless a test turns them on (tests send often).
      SINO_FREQUENCY_CAP: "0",
      SINO_SLEEPING_DAYS: "0",
      ...options.env,
    });
    const server = await startRacingOtherRuns(() =>
      startServer(config, {
        ...(location.schema === undefined ? {} : { schema: location.schema }),
        ...(options.logger === undefined ? {} : { logger: options.logger }),
        ...(options.metrics === undefined ? {} : { metrics: options.metrics }),
      }),
    );
    const port = new URL(server.url).port;
    return {
      url: `http://127.0.0.1:${port}`,
      baseUrl: `http://localhost:${port}`,
      database: server.database,
      delivery: server.delivery,
      metrics: server.metrics,
      metricsUrl: server.metricsUrl,
      ingestion: server.ingestion,
      location,
      async close() {
        await server.close();
        await fresh?.drop();
      },
    };
  } catch (error) {
    await fresh?.drop();
    throw error;
  }
}

/**
 * The server migrates at start, and Kysely's migrator introspects every schema of the database:
 * another test dropping its own schema meanwhile makes PostgreSQL raise 3F000 for that schema
 * (see migrateRacingOtherRuns in ./db.ts). Nothing was applied then, so starting again is safe.
 */
async function startRacingOtherRuns<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
      if (attempt >= 5 || cause?.code !== "3F000") throw error;
    }
  }
}
