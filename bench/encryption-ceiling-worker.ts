import { createECDH, randomBytes } from "node:crypto";
import { parentPort, workerData } from "node:worker_threads";
import { createPayloadEncryptor } from "../src/push/encrypt.js";
import { prepareSubscriberKeys } from "../src/push/subscriber-keys.js";

interface CeilingWorkerData {
  readonly payloadBytes: number;
}

// Distinct subscribers, as in a real fan-out (one ECDH agreement per recipient key).
const keys = Array.from({ length: 256 }, () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return prepareSubscriberKeys({
    p256dh: ecdh.getPublicKey().toString("base64url"),
    auth: randomBytes(16).toString("base64url"),
  });
});
const plaintext = randomBytes((workerData as CeilingWorkerData).payloadBytes);
// The fastest per-message encryption Sino has (the one its encryption threads use), so the
// ceiling is not lowered by an implementation the sender does not use.
const encryptPayload = createPayloadEncryptor();

function run(durationMs: number): number {
  const end = performance.now() + durationMs;
  let count = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 32; i++) encryptPayload(plaintext, keys[count++ & 255]!);
  }
  return count;
}

run(200); // warm-up: JIT and OpenSSL tables
export interface CeilingWorkerResult {
  readonly messages: number;
  /** This thread's own CPU time (user + system) over them, µs: what one encryption costs. */
  readonly cpuUs: number;
}

parentPort!.on("message", (durationMs: number) => {
  const before = process.threadCpuUsage();
  const messages = run(durationMs);
  const cpu = process.threadCpuUsage(before);
  parentPort!.postMessage({ messages, cpuUs: cpu.user + cpu.system } satisfies CeilingWorkerResult);
});
parentPort!.postMessage("ready");
