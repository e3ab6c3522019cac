import { loadTestTls } from "./test-tls.js";

/**
 * A test server's delivery engine pushing to the fake push service: its TLS authority, quick
 * polling, one encryption thread, and a timeout far above the fake's latency on a loaded machine.
 */
export const FAKE_PUSH_ENGINE_ENV: Readonly<Record<string, string>> = {
  SINO_PUSH_CA_FILE: loadTestTls().caPath,
  SINO_WORKER_POLL_MS: "50",
  SINO_ENCRYPTION_THREADS: "1",
  SINO_PUSH_TIMEOUT_MS: "5000",
};
