import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ApiClient, addToken, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../../../test/support/webhook-receiver.js";
import { createWebhookDispatcher, type WebhookDispatcher } from "../../../delivery/webhooks/dispatcher.js";
import { createWebhookClient } from "../../../delivery/webhooks/webhook-client.js";
import { createWebhooksRepository } from "../../../store/webhooks-repository.js";

const WEBHOOKS = "/api/v1/webhooks";
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

for (const dialect of DIALECTS) {
  describe(`webhook routes on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    describe("with the production URL policy", () => {
      beforeEach(async () => {
        server = await startOperatorServer({ dialect });
        admin = await setUpAdmin(server);
      });
      afterEach(async () => {
        await server.close();
      });

      it("creates a webhook whose secret is shown once, then lists, reads, updates and deletes it", async () => {
        const res = await admin.post(WEBHOOKS, { url: "https://93.184.215.14/sino", description: " CRM ", events: ["recipient.clicked", "recipient.accepted", "recipient.accepted"] });
        expect(res.status).toBe(201);
        expect(res.headers.get("cache-control")).toBe("no-store");
        const { webhook, secret } = res.body;
        expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
        expect(webhook).toEqual({
          id: expect.any(String),
          url: "https://93.184.215.14/sino",
          description: "CRM",
          events: ["recipient.accepted", "recipient.clicked"],
          enabled: true,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        const list = await admin.get(WEBHOOKS);
        expect(list.body).toEqual({ webhooks: [webhook] });
        expect(JSON.stringify(list.body)).not.toContain(secret);
        expect((await admin.get(`${WEBHOOKS}/${webhook.id}`)).body).toEqual({ webhook });

        const patched = await admin.patch(`${WEBHOOKS}/${webhook.id}`, { enabled: false, events: ["notification.completed"], description: null });
        expect(patched.body.webhook).toMatchObject({ enabled: false, events: ["notification.completed"], description: null });

        const rotated = await admin.post(`${WEBHOOKS}/${webhook.id}/secret`);
        expect(rotated.status).toBe(200);
        expect(rotated.body.secret).toMatch(/^whsec_/);
        expect(rotated.body.secret).not.toBe(secret);

        expect((await admin.delete(`${WEBHOOKS}/${webhook.id}`)).status).toBe(204);
        expect(await admin.get(`${WEBHOOKS}/${webhook.id}`)).toMatchObject({ status: 404, body: errorOf("webhook_not_found") });
        expect(await admin.delete(`${WEBHOOKS}/${webhook.id}`)).toMatchObject({ status: 404, body: errorOf("webhook_not_found") });
      });

      it("refuses URLs that are not https or point at a private, loopback or link-local address", async () => {
        const cases: Array<[string, string]> = [
          ["http://93.184.215.14/x", "webhook_url_not_https"],
          ["nada", "webhook_url_invalid"],
          ["https://user:senha@93.184.215.14/x", "webhook_url_invalid"],
          ["https://127.0.0.1/x", "webhook_url_private_address"],
          ["https://10.0.0.5/x", "webhook_url_private_address"],
          ["https://[fe80::1]/x", "webhook_url_private_address"],
          ["https://169.254.169.254/latest", "webhook_url_private_address"],
          ["https://localhost/x", "webhook_url_private_address"],
        ];
        for (const [url, code] of cases) {
          expect(await admin.post(WEBHOOKS, { url, events: ["recipient.accepted"] })).toMatchObject({ status: 400, body: errorOf(code, "url") });
        }
        const { body } = await admin.post(WEBHOOKS, { url: "https://93.184.215.14/x", events: ["recipient.accepted"] });
        expect(await admin.patch(`${WEBHOOKS}/${body.webhook.id}`, { url: "https://192.168.0.1/x" })).toMatchObject({ status: 400, body: errorOf("webhook_url_private_address", "url") });
        expect((await admin.get(WEBHOOKS)).body.webhooks).toHaveLength(1);
      });

      it("validates the events and caps the number of webhooks at 20", async () => {
        for (const events of [[], ["recipient.exploded"], ["webhook.test"], "recipient.accepted"]) {
          expect(await admin.post(WEBHOOKS, { url: "https://93.184.215.14/x", events })).toMatchObject({ status: 400, body: errorOf("webhook_events_invalid", "events") });
        }
        for (let i = 0; i < 20; i++) expect((await admin.post(WEBHOOKS, { url: `https://93.184.215.14/${i}`, events: ["recipient.accepted"] })).status).toBe(201);
        expect(await admin.post(WEBHOOKS, { url: "https://93.184.215.14/21", events: ["recipient.accepted"] })).toMatchObject({ status: 409, body: errorOf("too_many_webhooks") });
      });

      it("is for admins only: a publisher and a publish token are refused, an admin token is not", async () => {
        const { client } = await addUser(admin, "publisher");
        const publish = new ApiClient(server, { bearer: (await addToken(admin, "publish")).secret, origin: null });
        const adminToken = new ApiClient(server, { bearer: (await addToken(admin, "admin")).secret, origin: null });
        for (const who of [client, publish]) {
          expect(await who.get(WEBHOOKS)).toMatchObject({ status: 403, body: errorOf("forbidden") });
          expect(await who.post(WEBHOOKS, { url: "https://93.184.215.14/x", events: ["recipient.accepted"] })).toMatchObject({ status: 403 });
        }
        expect((await adminToken.post(WEBHOOKS, { url: "https://93.184.215.14/x", events: ["recipient.accepted"] })).status).toBe(201);
        expect(await new ApiClient(server).get(WEBHOOKS)).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      });
    });

    describe("delivering to a local https receiver", () => {
      let receiver: WebhookReceiver;
      let dispatcher: WebhookDispatcher;
      beforeEach(async () => {
        server = await startOperatorServer({ dialect, env: { SINO_WEBHOOK_ALLOW_PRIVATE: "true" } });
        admin = await setUpAdmin(server);
        receiver = await startWebhookReceiver();
        dispatcher = createWebhookDispatcher({
          repository: createWebhooksRepository(server.database),
          client: createWebhookClient({ allowPrivateAddresses: true, timeoutMs: 5_000, connectionsPerOrigin: 8, ca: receiver.ca }),
          clock: Date.now,
          logger: silent,
          options: { maxInFlight: 16, maxInFlightPerWebhook: 8, pollMs: 50, leaseMs: 60_000, retentionDays: 7 },
        });
        dispatcher.start();
      });
      afterEach(async () => {
        await dispatcher.stop({ graceful: false });
        await receiver.close();
        await server.close();
      });

      it("sends a signed test ping, lists it with its status, and resends it on demand", async () => {
        const { body } = await admin.post(WEBHOOKS, { url: `${receiver.origin}/in`, events: ["recipient.accepted"] });
        receiver.secret = body.secret;
        const id = body.webhook.id;
        const ping = await admin.post(`${WEBHOOKS}/${id}/test`);
        expect(ping.status).toBe(202);
        expect(ping.body.message).toMatchObject({ id: expect.stringMatching(/^msg_/), eventType: "webhook.test", status: "pending", attempts: 0 });
        const [received] = await receiver.waitFor(1);
        expect(received!.verified).toMatchObject({ type: "webhook.test", data: { webhookId: id } });
        expect(received!.headers["webhook-id"]).toBe(ping.body.message.id);

        const listed = await until(
          async () => (await admin.get(`${WEBHOOKS}/${id}/messages`)).body,
          (b) => b.messages[0]?.status === "delivered",
        );
        expect(listed).toMatchObject({ total: 1, page: 1, pageSize: 50, messages: [{ id: ping.body.message.id, status: "delivered", attempts: 1, lastStatus: 204, nextAttemptAt: null }] });

        const resent = await admin.post(`${WEBHOOKS}/${id}/messages/${ping.body.message.id}/resend`);
        expect(resent).toMatchObject({ status: 202, body: { message: { status: "pending", attempts: 0 } } });
        const again = await receiver.waitFor(2);
        expect(again[1]!.headers["webhook-id"]).toBe(ping.body.message.id);
        expect(await admin.post(`${WEBHOOKS}/${id}/messages/msg_nope/resend`)).toMatchObject({ status: 404, body: errorOf("webhook_message_not_found") });
      });
    });
  });
}
