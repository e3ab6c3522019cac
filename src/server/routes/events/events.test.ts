/**
 * POST /events through the real app on both databases, with the reports' writer held open by the
 * test: while a transaction is held nothing is answered; the reports arriving meanwhile are written
 * together; past the queue's capacity the answer is 503 with Retry-After and nothing is stored.
 */
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../../../test/support/db.js";
import { aNewNotification } from "../../../../test/support/delivery.js";
import { startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { ptBR } from "../../../shared/i18n/catalog.js";
import type { TimedNotificationEvent } from "../../../store/notification-events-repository.js";
import { createRepositories } from "../../../store/repositories.js";
import { createIngestion, type Ingestion } from "../../ingestion/ingestion.js";

const CAPACITY = 20;

for (const dialect of DIALECTS) {
  describe(`POST /events, group-committed, on ${dialect}`, () => {
    let database: TestDatabase;
    let server: OperatorServer;
    let ingestion: Ingestion;
    let bodies: string[];
    let release: () => void;
    const writes: number[] = [];

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      const repositories = createRepositories(database);
      const rows = Array.from({ length: CAPACITY + 1 }, (_, i) => ({
        endpoint: `https://push.example.com/${i}`,
        p256dh: "k",
        auth: randomBytes(16).toString("base64url"),
        user_agent: null,
        created_at: 0,
        updated_at: 0,
        last_seen_at: 0,
      }));
      await database.db.insertInto("subscriptions").values(rows).execute();
      const send = await repositories.notifications.createWithJobs(aNewNotification(), { now: Date.now(), jobSize: 1000, payloadFor: () => "{}" });
      bodies = rows.map((row) => JSON.stringify({ notificationId: String(send.id), type: "clicked", endpoint: row.endpoint, auth: row.auth }));
      writes.length = 0;
      const held = new Promise<void>((resolve) => (release = resolve));
      ingestion = createIngestion({
        // Every transaction waits for the test before it starts writing.
        events: {
          recordBatch: async (items: readonly TimedNotificationEvent[]) => {
            writes.push(items.length);
            await held;
            return repositories.notificationEvents.recordBatch(items);
          },
        },
        subscriptions: repositories.subscriptions,
        subscriptionChannels: repositories.subscriptionChannels,
        dialect,
        capacity: CAPACITY,
      });
      server = await startOperatorServer({ dialect, database, ingestion });
    });
    afterEach(async () => {
      release();
      await server.close();
      await database.cleanup();
    });

    const report = (body: string) => fetch(`${server.url}${API_ROUTES.events}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const storedCount = async () => Number((await database.db.selectFrom("notification_events").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
    async function until(condition: () => boolean): Promise<void> {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
    }

    it("answers nothing before the commit, writes the reports that gathered together, and refuses past the queue with 503 + Retry-After", async () => {
      let answered = 0;
      const first = report(bodies[0]!).then((r) => (answered++, r));
      await until(() => writes.length === 1);
      const rest = bodies.slice(1, CAPACITY).map((body) => report(body).then((r) => (answered++, r)));
      await until(() => ingestion.stats().events.pending === CAPACITY);

      const refused = await report(bodies[CAPACITY]!);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("1");
      expect(await refused.json()).toEqual({ error: { code: "write_queue_full", message: ptBR.errors.write_queue_full } });
      // Held: nothing written, nothing answered.
      expect(answered).toBe(0);
      expect(await storedCount()).toBe(0);

      release();
      const responses = await Promise.all([first, ...rest]);
      expect(responses.map((r) => r.status)).toEqual(Array.from({ length: CAPACITY }, () => 204));
      expect(await storedCount()).toBe(CAPACITY);
      expect(writes.reduce((a, b) => a + b, 0)).toBe(CAPACITY);
      // Fewer transactions than reports: the 19 that arrived while the first was held shared theirs.
      expect(writes.length).toBeLessThan(CAPACITY / 2);
      expect(ingestion.stats().events).toMatchObject({ batches: writes.length, items: CAPACITY, pending: 0 });
    });

    it("still answers a bad report on its own while the others of its batch are recorded", async () => {
      release();
      const bad = JSON.parse(bodies[1]!) as Record<string, string>;
      const responses = await Promise.all([report(bodies[0]!), report(JSON.stringify({ ...bad, auth: randomBytes(16).toString("base64url") })), report(bodies[2]!)]);
      expect(responses.map((r) => r.status)).toEqual([204, 403, 204]);
      expect(((await responses[1]!.json()) as { error: { code: string } }).error.code).toBe("subscription_auth_mismatch");
      expect(await storedCount()).toBe(2);
    });
  });
}
