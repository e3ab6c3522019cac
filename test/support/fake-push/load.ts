/**
 * Measures how many pushes per second the fake push service takes over HTTP/2 when it runs in its
 * own process (one core) and samples decryption — to check it will not be the bottleneck of the
 * benchmark. Not a test: a number to read.
 *
 *   tsx test/support/fake-push/load.ts [--requests 100000] [--sessions 4] [--streams 100] [--sample 100]
 */
import { parseArgs } from "node:util";
import webpush from "web-push";
import { subscriberKeysFor, subscriptionJson } from "./keys.js";
import { spawnFakePushService } from "./remote.js";
import { createH2Client, type PushHeaders } from "./test-client.js";
import { generateVapidTestKeys } from "./vapid-token.js";

const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "100000" },
    sessions: { type: "string", default: "4" },
    streams: { type: "string", default: "100" },
    sample: { type: "string", default: "100" },
  },
});
const total = Number(values.requests);
const sessions = Number(values.sessions);
const streamsPerSession = Number(values.streams);
const seed = "load-seed";

const fake = await spawnFakePushService({ seed, decryptSample: Number(values.sample), logSize: 100 });
const vapid = generateVapidTestKeys();
// 200 distinct subscriptions with real ~1 KB bodies, reused round-robin: the client must stay
// cheaper than the server it measures, so it does no encryption in the loop.
const prepared = Array.from({ length: 200 }, (_, i) => {
  const id = String(i);
  const details = webpush.generateRequestDetails(subscriptionJson(fake.endpointFor(id), subscriberKeysFor(seed, id)), "x".repeat(1000), {
    vapidDetails: { subject: "mailto:ops@sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 3600,
  });
  return { path: new URL(details.endpoint).pathname, headers: details.headers as PushHeaders, body: details.body as Buffer };
});
// One token for all (as a real sender caches it per audience).
const authorization = prepared[0]!.headers.Authorization!;
for (const p of prepared) (p.headers as Record<string, string | number>).Authorization = authorization;

const clients = Array.from({ length: sessions }, () => createH2Client(fake.origin));
let sent = 0;
let failed = 0;
async function worker(client: ReturnType<typeof createH2Client>): Promise<void> {
  while (sent < total) {
    const p = prepared[sent++ % prepared.length]!;
    const reply = await client.post(p.path, p.headers, p.body).catch(() => null);
    if (reply?.status !== 201) failed += 1;
  }
}
// Warm-up: connections, JIT, VAPID cache.
await Promise.all(clients.map((c) => c.post(prepared[0]!.path, prepared[0]!.headers, prepared[0]!.body)));
await fake.reset();
const started = performance.now();
await Promise.all(clients.flatMap((c) => Array.from({ length: streamsPerSession }, () => worker(c))));
const seconds = (performance.now() - started) / 1000;
const stats = await fake.stats();
await Promise.all(clients.map((c) => c.close()));
await fake.close();
console.log(
  JSON.stringify({
    requests: total,
    seconds: Number(seconds.toFixed(2)),
    reqPerSecond: Math.round(total / seconds),
    // What one core of the service takes, whatever else the machine is running.
    serverCpuSeconds: Number(stats.cpuSeconds.toFixed(2)),
    reqPerServerCpuSecond: Math.round(stats.requests / stats.cpuSeconds),
    serverCpuUsPerRequest: Number(((stats.cpuSeconds * 1e6) / stats.requests).toFixed(1)),
    failed,
    accepted: stats.accepted,
    decrypted: stats.decrypted,
    h2: stats.protocols.h2,
  }),
);
