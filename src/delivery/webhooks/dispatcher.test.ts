import type { LookupFunction } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, createTestDatabase, type TestDatabase } from "../../../test/support/db.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.js";
import { enqueueWebhookEvents } from "../../store/webhook-outbox.js";
import { createWebhooksRepository, type WebhookMessageRecord, type WebhooksRepository } from "../../store/webhooks-repository.js";
import { createWebhookDispatcher, type WebhookDispatcher, type WebhookDispatcherOptions } from "./dispatcher.js";
import { newWebhookSecret } from "./sign.js";
import { createWebhookClient, type WebhookClientOptions } from "./webhook-client.js";
import { until } from "../../../test/support/until.js";

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const OPTIONS: WebhookDispatcherOptions = { maxInFlight: 32, maxInFlightPerWebhook: 8, pollMs: 60_000, leaseMs: 60_000, retentionDays: 7 };

for (const dialect of DIALECTS) {
  describe(`webhook dispatcher on ${dialect}`, () => {
    let database: TestDatabase;
    let repository: WebhooksRepository;
    let receiver: WebhookReceiver;
    let clock: number;
    const dispatchers: WebhookDispatcher[] = [];

    beforeEach(async () => {
      database = await createTestDatabase(dialect);
      repository = createWebhooksRepository(database);
      receiver = await startWebhookReceiver();
      // The real time, in whole seconds: the reference library refuses timestamps 5 minutes off.
      clock = Math.floor(Date.now() / 1000) * 1000;
    });
    afterEach(async () => {
      for (const d of dispatchers.splice(0)) await d.stop({ graceful: false });
      await receiver.close();
      await database.cleanup();
    });

    function dispatcher(client: Partial<WebhookClientOptions> = {}, options: Partial<WebhookDispatcherOptions> = {}, pushesBusy?: () => boolean): WebhookDispatcher {
      const d = createWebhookDispatcher({
        ...(pushesBusy === undefined ? {} : { pushesBusy }),
        repository,
        client: createWebhookClient({ allowPrivateAddresses: true, timeoutMs: 5_000, connectionsPerOrigin: 8, ca: receiver.ca, ...client }),
        clock: () => clock,
        logger: silent,
        options: { ...OPTIONS, ...options },
        random: () => 0.5,
      });
      dispatchers.push(d);
      return d;
    }

    async function aWebhook(url = `${receiver.origin}/hook?token=abc`): Promise<number> {
      const secret = newWebhookSecret();
      receiver.secret = secret;
      const hook = await repository.create({ url, description: null, events: ["recipient.accepted", "notification.completed"], secret }, clock, 20);
      return hook!.id;
    }

    async function queue(n = 1): Promise<void> {
      const events = Array.from({ length: n }, (_, i) => ({ type: "recipient.accepted" as const, data: { notificationId: "1", subscriptionId: String(i + 1), userId: null, siteId: "1" } }));
      await enqueueWebhookEvents(database.db, events, clock);
    }

    const messagesOf = async (webhookId: number): Promise<WebhookMessageRecord[]> => (await repository.listMessages(webhookId, 1, 100)).messages;
    const settledOnce = (webhookId: number) => until(() => messagesOf(webhookId), (ms) => ms.every((m) => m.attempts >= 1));

    it("POSTs each event signed as Standard Webhooks says, and records it delivered", async () => {
      const id = await aWebhook();
      await queue(3);
      dispatcher().start();
      const received = await receiver.waitFor(3);
      const messages = await until(() => messagesOf(id), (ms) => ms.every((m) => m.status === "delivered"));
      expect(messages.map((m) => [m.attempts, m.lastStatus, m.deliveredAt])).toEqual(Array(3).fill([1, 204, clock]));
      for (const r of received) {
        expect(r.path).toBe("/hook?token=abc");
        expect(r.headers["content-type"]).toBe("application/json");
        expect(r.headers["webhook-timestamp"]).toBe(String(clock / 1000));
        expect(r.verified).toMatchObject({ type: "recipient.accepted", data: { notificationId: "1" } });
      }
      expect(new Set(received.map((r) => r.headers["webhook-id"]))).toEqual(new Set(messages.map((m) => m.messageId)));
    });

    it("retries a 500 after the backoff, with the same webhook-id, then records the success", async () => {
      const id = await aWebhook();
      await queue();
      receiver.answer = (_r, n) => ({ status: n === 1 ? 500 : 200 });
      const d = dispatcher();
      d.start();
      const [first] = await settledOnce(id);
      expect(first).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "HTTP 500", notBefore: clock + 5_000 });
      clock += 4_999;
      d.wake();
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received).toHaveLength(1);
      clock += 1;
      d.wake();
      await receiver.waitFor(2);
      const [done] = await until(() => messagesOf(id), (ms) => ms[0]!.status === "delivered");
      expect(done).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null });
      expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
      expect(receiver.received[1]!.verified).toBeDefined();
    });

    it("honours the receiver's Retry-After", async () => {
      const id = await aWebhook();
      await queue();
      receiver.answer = () => ({ status: 503, headers: { "retry-after": "120" } });
      dispatcher().start();
      const [message] = await settledOnce(id);
      expect(message).toMatchObject({ status: "pending", lastStatus: 503, notBefore: clock + 120_000 });
    });

    it("does not follow a redirect: a 3xx is a failed attempt", async () => {
      const id = await aWebhook();
      await queue();
      receiver.answer = (r) => (r.path.startsWith("/hook") ? { status: 307, headers: { location: `${receiver.origin}/elsewhere` } } : { status: 200 });
      dispatcher().start();
      const [message] = await settledOnce(id);
      expect(message).toMatchObject({ status: "pending", lastStatus: 307, lastError: "HTTP 307" });
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received.map((r) => r.path)).toEqual(["/hook?token=abc"]);
    });

    it("gives up on a receiver that does not answer in time, and retries later", async () => {
      const id = await aWebhook();
      await queue();
      receiver.answer = () => ({ status: 200, delayMs: 3_000 });
      dispatcher({ timeoutMs: 300 }).start();
      const [message] = await settledOnce(id);
      expect(message).toMatchObject({ status: "pending", attempts: 1, lastStatus: null, lastError: "timeout", notBefore: clock + 5_000 });
    });

    it("marks a message failed after its last attempt, and disables a webhook whose receiver answers 410", async () => {
      const id = await aWebhook();
      await queue(1);
      await database.db.updateTable("webhook_messages").set({ attempts: 9 }).execute();
      receiver.answer = () => ({ status: 500 });
      const d = dispatcher();
      d.start();
      const [failed] = await until(() => messagesOf(id), (ms) => ms[0]!.status !== "pending");
      expect(failed).toMatchObject({ status: "failed", attempts: 10, lastStatus: 500 });

      receiver.answer = () => ({ status: 410 });
      await queue(2);
      d.wake();
      await until(() => repository.findById(id), (w) => w?.enabled === false);
      const messages = await messagesOf(id);
      // The one that got the 410 failed; whichever was not yet sent waits for the webhook to come back.
      expect(messages.filter((m) => m.status === "failed" && m.lastStatus === 410).length).toBeGreaterThanOrEqual(1);
    });

    it("sends what a killed process had claimed once its lease runs out", async () => {
      const id = await aWebhook();
      await queue(2);
      const claimedByDead = await repository.claimDue({ owner: "dead-process", now: clock, leaseMs: 60_000 }, { limit: 10, excludeWebhooks: [] });
      expect(claimedByDead).toHaveLength(2);
      const d = dispatcher();
      d.start();
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received).toHaveLength(0);
      clock += 60_000;
      d.wake();
      await receiver.waitFor(2);
      await until(() => messagesOf(id), (ms) => ms.every((m) => m.status === "delivered"));
    });

    it("refuses at delivery a host that resolves to a private address", async () => {
      const port = new URL(receiver.origin).port;
      const id = await aWebhook(`https://hooks.example.test:${port}/hook`);
      await queue();
      const toLoopback: LookupFunction = (_host, options, callback) => {
        if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: "127.0.0.1", family: 4 }]);
        else callback(null, "127.0.0.1", 4);
      };
      dispatcher({ allowPrivateAddresses: false, lookup: toLoopback }).start();
      const [message] = await until(() => messagesOf(id), (ms) => ms[0]!.status !== "pending");
      expect(message).toMatchObject({ status: "failed", lastError: "blocked_address" });
      expect(receiver.received).toHaveLength(0);
    });

    it("keeps at most 8 requests in flight to one webhook", async () => {
      const id = await aWebhook();
      await queue(30);
      receiver.answer = () => ({ status: 200, delayMs: 100 });
      dispatcher().start();
      await receiver.waitFor(30);
      await until(() => messagesOf(id), (ms) => ms.every((m) => m.status === "delivered"));
      expect(receiver.maxConcurrent).toBeLessThanOrEqual(8);
      expect(receiver.maxConcurrent).toBeGreaterThan(1);
    });

    it("holds the events queued while this process pushes until the pushes end, or until they are older than the deferral", async () => {
      const id = await aWebhook();
      let busy = true;
      const d = dispatcher({}, { pollMs: 20, maxDeferWhilePushingMs: 5_000 }, () => busy);
      await queue(2);
      d.start();
      // Several polls go by while the pushes last: nothing is claimed, nothing is sent.
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(0);
      expect((await messagesOf(id)).map((m) => m.attempts)).toEqual([0, 0]);
      // Pushes that never pause: once older than the deferral they go anyway.
      clock += 5_001;
      await receiver.waitFor(2);
      await queue(1);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(2);
      // The notification is over: the rest goes at once.
      busy = false;
      await receiver.waitFor(3);
      await until(() => messagesOf(id), (ms) => ms.every((m) => m.status === "delivered"));
    });

    it("deletes delivered messages past the retention", async () => {
      const id = await aWebhook();
      await queue(2);
      const d = dispatcher();
      d.start();
      await until(() => messagesOf(id), (ms) => ms.every((m) => m.status === "delivered"));
      clock += 7 * 86_400_000;
      expect(await d.prune()).toBe(0);
      clock += 1;
      expect(await d.prune()).toBe(2);
    });
  });
}
