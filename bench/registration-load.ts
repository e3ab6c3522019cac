/**
 * `node --import tsx bench/registration-load.ts '{"url":…,"count":…,"connections":…}'`
 *
 * The load generator of the registration benchmark, in its own process so its CPU is not the
 * server's: autocannon (a well-kept HTTP load generator made for this, with per-request bodies
 * and latency percentiles) sends `count` `POST /api/v1/subscriptions`, `connections` at a time,
 * each a new browser subscription: a unique endpoint on the bench's allowed push host and a real
 * P-256 key (made before the run starts). Prints one JSON line with autocannon's figures. The
 * ingestion bench sends other bodies (service-worker reports, the floor's) to another path.
 */
import autocannon from "autocannon";
import { createECDH, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { API_ROUTES } from "../src/shared/api/routes.js";

export interface RegistrationLoadInput {
  readonly url: string;
  readonly host: string;
  readonly count: number;
  readonly connections: number;
  /** Another route (the ingestion bench: POST /events, or the bare Fastify floor); default: registrations. */
  readonly path?: string;
  /** A JSON file of request bodies (strings), sent in turn; default: a new subscription each. */
  readonly bodiesFile?: string;
}

export interface RegistrationLoadResult {
  readonly requests: number;
  readonly status2xx: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
  readonly seconds: number;
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

const input = JSON.parse(process.argv[2] ?? "{}") as RegistrationLoadInput;
const bodies = input.bodiesFile !== undefined ? (JSON.parse(readFileSync(input.bodiesFile, "utf8")) as string[]) : Array.from({ length: input.count }, (_, i) => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return JSON.stringify({
    endpoint: `https://${input.host}/send/${process.pid}-${i}-${randomBytes(6).toString("base64url")}`,
    keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  });
});

let next = 0;
const result = await autocannon({
  url: input.url,
  connections: input.connections,
  amount: input.count,
  // With `amount`, autocannon ends at its next sample tick and its `duration` is rounded up to it:
  // at the default 1 s tick, 5,000 requests read as exactly 1.02 or 2.02 s whatever they took, so
  // every rate came out quantised (4,902/s, 2,475/s). A 10 ms tick measures the real time.
  sampleInt: 10,
  requests: [
    {
      method: "POST",
      path: input.path ?? API_ROUTES.subscriptions,
      headers: { "content-type": "application/json" },
      // A new subscription per request; autocannon calls this once per request it sends.
      setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length]! }),
    },
  ],
});
const out: RegistrationLoadResult = {
  requests: result.requests.total,
  status2xx: result["2xx"],
  non2xx: result.non2xx,
  errors: result.errors,
  timeouts: result.timeouts,
  seconds: result.duration,
  latencyMs: { p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
};
console.log(JSON.stringify(out));
