/**
 * `npx tsx bench/push-path.ts [--n 20000] [--mode both|main|pool] [--inflight 512] [--batch 128]`
 *
 * Sends N ~1 KB pushes through src/push (VAPID, encryption, undici HTTP/2 transport, classifier)
 * to the fake push service running in its own process, once encrypting on the main thread and
 * once in the worker pool, and prints msgs/s for each: the measurement behind the choice of
 * where the delivery engine encrypts. `--threads` sets the pool's size (default: every core). `--mode transport` sends one pre-encrypted body N times. No database here; the full benchmark is `npm run bench`.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createEncryptionPool } from "../src/push/encryption-pool.js";
import { createPushSender, type PushSender } from "../src/push/sender.js";
import { createPushTransport } from "../src/push/transport.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { subscriberKeysFor } from "../test/support/fake-push/keys.js";
import { spawnFakePushService } from "../test/support/fake-push/remote.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "20000" },
    mode: { type: "string", default: "both" },
    inflight: { type: "string", default: "512" },
    batch: { type: "string", default: "128" },
    threads: { type: "string" },
  },
});
const n = Number(values.n);
const inflight = Number(values.inflight);
const batchSize = Number(values.batch);
const seed = "push-path-bench";

const fake = await spawnFakePushService({ seed, decryptSample: 1000, logSize: 10 });
const targets = Array.from({ length: n }, (_, i) => {
  const k = subscriberKeysFor(seed, `b${i}`);
  return { endpoint: fake.endpointFor(`b${i}`), keys: { p256dh: k.p256dh.toString("base64url"), auth: k.auth.toString("base64url") } };
});
const payload = Buffer.from(JSON.stringify({ title: "Promoção", body: "x".repeat(950), url: "https://example.com/p" }));

function newSender() {
  const transport = createPushTransport({
    policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
    ca: loadTestTls().ca,
    maxInFlightPerOrigin: inflight,
    maxConnectionsPerOrigin: 8,
  });
  const sender = createPushSender({ vapid: createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:bench@example.com" }), transport });
  return { transport, sender };
}

async function runMain(sender: PushSender): Promise<number> {
  let next = 0;
  let accepted = 0;
  async function lane(): Promise<void> {
    while (next < n) {
      const target = targets[next++]!;
      if ((await sender.send(target, payload, { ttl: 3600 })).kind === "ok") accepted++;
    }
  }
  await Promise.all(Array.from({ length: inflight }, lane));
  return accepted;
}

/** Transport only: one body encrypted once and sent N times (the I/O side's own ceiling). */
async function runTransport(sender: PushSender): Promise<number> {
  const { encryptPayload } = await import("../src/push/encrypt.js");
  const body = encryptPayload(payload, targets[0]!.keys);
  let next = 0;
  let accepted = 0;
  async function lane(): Promise<void> {
    while (next < n) {
      next++;
      if ((await sender.sendEncrypted(targets[0]!.endpoint, body, { ttl: 3600 })).kind === "ok") accepted++;
    }
  }
  await Promise.all(Array.from({ length: inflight }, lane));
  return accepted;
}

async function runPool(sender: PushSender): Promise<number> {
  const pool = createEncryptionPool(values.threads !== undefined ? { threads: Number(values.threads) } : {});
  let accepted = 0;
  let sending = 0;
  let wake: (() => void) | undefined;
  const pendingSends: Promise<void>[] = [];
  // Keep two batches per thread encrypting ahead while the main thread sends.
  const batches: Array<Promise<Array<Buffer | { error: string }>>> = [];
  let queued = 0;
  const enqueue = () => {
    if (queued < n) {
      const slice = targets.slice(queued, queued + batchSize);
      batches.push(pool.encryptBatch(payload, slice.map((t) => t.keys)));
      queued += slice.length;
    }
  };
  for (let i = 0; i < pool.threads * 2; i++) enqueue();
  let index = 0;
  while (batches.length > 0) {
    const items = await batches.shift()!;
    enqueue();
    for (const item of items) {
      const target = targets[index++]!;
      if (!Buffer.isBuffer(item)) continue;
      while (sending >= inflight) await new Promise<void>((r) => (wake = r));
      sending++;
      pendingSends.push(
        sender.sendEncrypted(target.endpoint, item, { ttl: 3600 }).then((o) => {
          if (o.kind === "ok") accepted++;
          sending--;
          wake?.();
          wake = undefined;
        }),
      );
    }
  }
  await Promise.all(pendingSends);
  await pool.close();
  return accepted;
}

/** The fake service's CPU time so far (Linux /proc), to show how the two cores were shared. */
function fakeCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/${fake.process.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  } catch {
    return Number.NaN;
  }
}

const results: Record<string, number> = {};
for (const mode of values.mode === "both" ? ["main", "pool"] : [values.mode]) {
  await fake.reset();
  const { transport, sender } = newSender();
  // Warm-up: open the connection and sign the VAPID token.
  await sender.send(targets[0]!, payload);
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const fakeBefore = fakeCpuMs();
  const accepted = mode === "pool" ? await runPool(sender) : mode === "transport" ? await runTransport(sender) : await runMain(sender);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const senderCpu = (cpu.user + cpu.system) / 1000 / (seconds * 1000);
  const fakeCpu = (fakeCpuMs() - fakeBefore) / (seconds * 1000);
  await transport.close();
  const stats = await fake.stats();
  results[mode] = Math.round(accepted / seconds);
  console.log(
    `${mode}: ${accepted}/${n} accepted in ${seconds.toFixed(2)} s = ${results[mode]} msgs/s ` +
      `(fake saw ${stats.accepted} accepted, ${stats.connections} connections, decrypt ok ${stats.decrypted.ok} failed ${stats.decrypted.failed}; ` +
      `CPU cores busy: sender process ${senderCpu.toFixed(2)}, fake service ${fakeCpu.toFixed(2)})`,
  );
}
console.log(JSON.stringify({ n, inflight, batchSize, msgsPerSecond: results }));
await fake.close();
