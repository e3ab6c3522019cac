import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedSubscriptions, waitForNotification } from "../../test/support/delivery.js";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { fakePushServerEnv } from "../../test/support/worker-env.js";
import { createDeliveryEngine } from "../delivery/engine.js";
import { createPushTransport } from "../push/transport.js";
import { createVapidSigner } from "../push/vapid.js";
import { generateVapidKeys } from "../push/vapid-keys.js";
import { createRepositories } from "../store/repositories.js";

let fake: FakePushService;
beforeAll(async () => {
  fake = await startFakePushService();
});
afterAll(async () => {
  await fake.close();
});

const ENGINE_ENV = fakePushServerEnv({ SINO_PUSH_TIMEOUT_MS: "2000" });

describe("the worker embedded in sino start on SQLite", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    fake.reset();
  });

  it("delivers a send in the server's own process", async () => {
    server = await startTestServer({ dialect: "sqlite", env: ENGINE_ENV });
    const ids = await seedSubscriptions(server.database, fake, 300);
    const engine = server.delivery;
    const notification = await engine.createNotification({ title: "Do servidor", body: "Entregue pelo sino start" });
    const done = await waitForNotification(() => engine.getNotification(notification.id));
    expect(done).toMatchObject({ status: "completed", counts: { queued: 300, accepted: 300, retrying: 0, failed: 0, removed: 0 } });
    const stats = fake.stats();
    expect(new Set(stats.acceptedById.keys())).toEqual(new Set(ids));
    expect(stats.duplicateAcceptances).toBe(0);
    expect(stats.decrypted).toEqual({ ok: 300, failed: 0 });
  });

  it("leaves delivery to sino worker processes when SINO_WORKER_EMBEDDED=false", async () => {
    server = await startTestServer({ dialect: "sqlite", env: { ...ENGINE_ENV, SINO_WORKER_EMBEDDED: "false" } });
    await seedSubscriptions(server.database, fake, 5);
    const notification = await server.delivery.createNotification({ title: "Ninguém entrega aqui" });
    expect((await server.delivery.getNotification(notification.id))?.status).toBe("queued");

    // A worker elsewhere (here: another engine on the same database) picks the stored send up.
    const transport = createPushTransport({
      policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
      ca: loadTestTls().ca,
    });
    const worker = createDeliveryEngine({
      repositories: createRepositories(server.database),
      transport,
      vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" }),
      options: { pollMs: 20, encryptionThreads: 0 },
    });
    expect(fake.stats().requests).toBe(0);
    worker.start();
    try {
      const done = await waitForNotification(() => worker.getNotification(notification.id));
      expect(done.counts).toMatchObject({ queued: 5, accepted: 5 });
    } finally {
      await worker.stop({ graceful: true });
      await transport.close();
    }
  });
});
