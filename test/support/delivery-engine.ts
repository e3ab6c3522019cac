import { afterEach, beforeEach } from "vitest";
import { createDeliveryEngine, type DeliveryEngine } from "../../src/delivery/engine.js";
import { createPushTransport, type PushTransport } from "../../src/push/transport.js";
import { createVapidSigner } from "../../src/push/vapid.js";
import { generateVapidKeys } from "../../src/push/vapid-keys.js";
import { createRepositories } from "../../src/store/repositories.js";
import type { Dialect } from "../../src/store/database.js";
import { createTestDatabase, type TestDatabase } from "./db.js";
import type { FakePushService } from "./fake-push/fake-push-service.js";
import { loadTestTls } from "./fake-push/test-tls.js";

/** The database and the running engine of the current test; set by beforeEach. */
export interface SmallBatchEngine {
  database: TestDatabase;
  engine: DeliveryEngine;
}

/**
 * Before each test: resets the fake, creates a test database and starts a delivery engine with
 * small jobs and batches (so an audience filter must hold across many ranges and sub-batches),
 * pushing to the fake over TLS; after each, stops the engine gracefully and drops the database.
 */
export function useSmallBatchEngine(dialect: Dialect, fake: () => FakePushService): SmallBatchEngine {
  const vapid = createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:ops@sino.example.com" });
  const current = {} as SmallBatchEngine;
  let transport: PushTransport;
  beforeEach(async () => {
    fake().reset();
    current.database = await createTestDatabase(dialect);
    transport = createPushTransport({
      policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
      ca: loadTestTls().ca,
      requestTimeoutMs: 10_000,
    });
    current.engine = createDeliveryEngine({
      repositories: createRepositories(current.database),
      transport,
      vapid,
      options: { lanes: 2, batchSize: 7, jobSize: 10, pollMs: 20, encryptionThreads: 0 },
    });
    current.engine.start();
  });
  afterEach(async () => {
    await current.engine.stop({ graceful: true });
    await transport.close();
    await current.database.cleanup();
  });
  return current;
}
