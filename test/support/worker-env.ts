import type { VapidKeys } from "../../src/push/vapid-keys.js";
import { loadTestTls } from "./fake-push/test-tls.js";

/**
 * The environment a real `sino` process (`start` or `worker`) needs to push to the fake push
 * service over TLS with the given VAPID keys and worker shape; the caller adds the database.
 */
export function fakePushWorkerEnv(vapidKeys: VapidKeys, worker: { lanes: number; batch: number }): Record<string, string> {
  return {
    SINO_VAPID_PUBLIC_KEY: vapidKeys.publicKey,
    SINO_VAPID_PRIVATE_KEY: vapidKeys.privateKey,
    SINO_VAPID_SUBJECT: "mailto:ops@sino.example.com",
    SINO_PUSH_ALLOWED_HOSTS: "127.0.0.1",
    SINO_PUSH_ALLOW_PRIVATE: "true",
    SINO_PUSH_CA_FILE: loadTestTls().caPath,
    // Far above the fake's latency even on a loaded machine (a timeout would resend), and the
    // lease just over twice that, so a test that SIGKILLs a worker waits little for it to run out.
    SINO_PUSH_TIMEOUT_MS: "2500",
    SINO_LEASE_SECONDS: "6",
    SINO_WORKER_LANES: String(worker.lanes),
    SINO_WORKER_BATCH: String(worker.batch),
    SINO_WORKER_POLL_MS: "50",
    SINO_FREQUENCY_CAP: "0",
    SINO_SLEEPING_DAYS: "0",
    SINO_ENCRYPTION_THREADS: "1",
    SINO_LOG_LEVEL: "warn",
    // Tests run at any hour: marketing is not held for a notification window unless a test sets one.
    SINO_SEND_WINDOW: "00:00-00:00",
  };
}

/**
 * For `startTestServer`: its embedded worker trusts the fake push service's certificate, polls
 * every 50 ms and encrypts on one thread; `overrides` replace or add variables (a timeout, a token).
 */
export function fakePushServerEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    SINO_PUSH_CA_FILE: loadTestTls().caPath,
    SINO_WORKER_POLL_MS: "50",
    SINO_ENCRYPTION_THREADS: "1",
    SINO_PUSH_TIMEOUT_MS: "5000",
    ...overrides,
  };
}
