/**
 * Issue 21, group commit: a real `sino start` process takes service-worker reports from clients
 * that keep one request each in flight; mid-stream it gets SIGTERM (it must drain: every report it
 * answered 204 is in the table, and it exits 0) or SIGKILL (it must not have answered anything it
 * had not committed: every 204 the clients got is in the table). Both databases.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, openTestDatabase, type TestDatabase } from "../../test/support/db.js";
import { aNewNotification } from "../../test/support/delivery.js";
import { API_ROUTES } from "../shared/api/routes.js";
import { createNotificationsRepository } from "../store/notifications-repository.js";

const SUBSCRIPTIONS = 3000;
const CLIENTS = 24;
/** Reports answered before the signal: the server is busy writing batches when it comes. */
const BEFORE_SIGNAL = 150;

interface Report {
  readonly subscriptionId: number;
  readonly body: string;
}

for (const dialect of DIALECTS) {
  describe(`group commit under signals on ${dialect}`, { timeout: 180_000 }, () => {
    let database: TestDatabase;
    let reports: Report[];
    let child: ChildProcess | undefined;

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      const rows = Array.from({ length: SUBSCRIPTIONS }, (_, i) => ({
        endpoint: `https://push.example.com/${i}-${randomBytes(4).toString("hex")}`,
        p256dh: "k",
        auth: randomBytes(16).toString("base64url"),
        user_agent: null,
        created_at: 0,
        updated_at: 0,
        last_seen_at: 0,
      }));
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 500) {
        const inserted = await database.db.insertInto("subscriptions").values(rows.slice(i, i + 500)).returning("id").execute();
        ids.push(...inserted.map((r) => Number(r.id)));
      }
      const notification = await createNotificationsRepository(database).createWithJobs(aNewNotification(), { now: Date.now(), jobSize: 1000, payloadFor: () => "{}" });
      reports = rows.map((row, i) => ({
        subscriptionId: ids[i]!,
        body: JSON.stringify({ notificationId: String(notification.id), type: "shown", endpoint: row.endpoint, auth: row.auth }),
      }));
    });
    afterEach(async () => {
      if (child !== undefined && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      child = undefined;
      await database.cleanup();
    });

    /** `sino start` on the test's database, no delivery lanes; resolves with its URL. */
    async function startSino(): Promise<{ url: string; exited: Promise<[number | null, NodeJS.Signals | null]> }> {
      child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "start"], {
        env: {
          PATH: process.env.PATH ?? "",
          DATABASE_URL: database.location.url,
          ...(database.location.schema === undefined ? {} : { SINO_DATABASE_SCHEMA: database.location.schema, SINO_DATABASE_POOL_SIZE: "4" }),
          SINO_PORT: "0",
          SINO_HOST: "127.0.0.1",
          SINO_WEB_DIR: "/nonexistent",
          SINO_WORKER_EMBEDDED: "false",
          SINO_LOG_LEVEL: "warn",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
      const output: string[] = [];
      createInterface({ input: child.stderr! }).on("line", (line) => output.push(line));
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child!.stdout! }).on("line", (line) => {
          output.push(line);
          const match = /^Sino ouvindo em (\S+)/.exec(line);
          if (match !== null) resolve(match[1]!);
        });
        void exited.then(([code]) => reject(new Error(`sino start exited (${code}):\n${output.join("\n")}`)));
      });
      return { url, exited };
    }

    /**
     * CLIENTS clients, each sending the next report as soon as the last is answered, until the
     * server stops answering. `onAnswered` is told each 204 as it arrives.
     */
    function sendReports(url: string, onAnswered: (count: number) => void): Promise<{ answered: Set<number>; statuses: Map<number, number> }> {
      const answered = new Set<number>();
      const statuses = new Map<number, number>();
      let next = 0;
      const client = async () => {
        for (;;) {
          const report = reports[next++];
          if (report === undefined) return;
          let status: number;
          try {
            const response = await fetch(`${url}${API_ROUTES.events}`, { method: "POST", headers: { "content-type": "application/json" }, body: report.body });
            status = response.status;
            await response.arrayBuffer();
          } catch {
            return; // the connection is gone: the process stopped
          }
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status !== 204) return;
          answered.add(report.subscriptionId);
          onAnswered(answered.size);
        }
      };
      return Promise.all(Array.from({ length: CLIENTS }, client)).then(() => ({ answered, statuses }));
    }

    async function storedReports(): Promise<Set<number>> {
      const reader = openTestDatabase(database.location);
      try {
        const rows = await reader.db.selectFrom("notification_events").select("subscription_id").execute();
        return new Set(rows.map((r) => Number(r.subscription_id)));
      } finally {
        await reader.destroy();
      }
    }

    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      it(`${signal} mid-batch: every report answered 204 is in the table`, async () => {
        const { url, exited } = await startSino();
        let signalled = false;
        let answeredAtSignal = 0;
        const done = sendReports(url, (count) => {
          if (count >= BEFORE_SIGNAL && !signalled) {
            signalled = true;
            answeredAtSignal = count;
            child!.kill(signal);
          }
        });
        const [[code, exitSignal], { answered, statuses }] = await Promise.all([exited, done]);
        expect(signalled).toBe(true);
        if (signal === "SIGTERM") {
          // Drained: the reports it had taken when the signal came were written and answered
          // (the other clients each had one in flight), then it exited on its own.
          expect({ code, exitSignal }).toEqual({ code: 0, exitSignal: null });
          expect(answered.size).toBeGreaterThan(answeredAtSignal);
        } else {
          expect(exitSignal).toBe("SIGKILL");
        }
        // Refusals while stopping are honest 503s; nothing else but 204.
        expect([...statuses.keys()].filter((s) => s !== 204 && s !== 503)).toEqual([]);
        const stored = await storedReports();
        expect([...answered].filter((id) => !stored.has(id))).toEqual([]);
        expect(answered.size).toBeGreaterThanOrEqual(BEFORE_SIGNAL);
      });
    }
  });
}
