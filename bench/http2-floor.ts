/**
 * `npx tsx bench/http2-floor.ts [--requests 20000] [--warm-up 2000] [--inflight 256] [--body 1200]
 *   [--encrypt-ms 3000]`
 *
 * The HTTP/2 floor: what one push costs in CPU at both ends of a connection when Node's HTTP/2
 * does nothing else. A bare node:http2 client in this process sends N push-like POSTs (Sino's own
 * headers: TTL, Content-Encoding, Content-Type, a real VAPID Authorization, Urgency; a body the
 * size of an encrypted notification) with `inflight` streams open on one session, to a bare
 * node:http2 server in its own process (http2-floor-server.ts). Each side's CPU over the measured
 * window (`process.cpuUsage`, every thread of the process), divided by N, is its cost per request.
 *
 * Why it matters: the benchmark runs Sino, its encryption threads and the push service on the
 * same cores, so each push costs at least encryption E + HTTP/2 client C + server S of CPU, while
 * the encryption-only ceiling costs E. Sino / ceiling can therefore not exceed E / (E + C + S) on
 * that machine while both ends speak Node's HTTP/2; `npm run bench` prints this bound next to the
 * ratio. C and S are Node's defaults with nothing on top (one session, default windows): Sino's
 * own client and the fake push service only add to them.
 *
 * Run alone it also measures E (`measureEncryptUsPerMessage`), prints the figures and the bound,
 * and ends with one JSON line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import { once } from "node:events";
import { connect, type ClientHttp2Session } from "node:http2";
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createPayloadEncryptor, encryptedLength } from "../src/push/encrypt.js";
import { buildEncryptedPushRequest } from "../src/push/request.js";
import { createVapidSigner } from "../src/push/vapid.js";
import { generateVapidKeys } from "../src/push/vapid-keys.js";
import { prepareSubscriberKeys } from "../src/push/subscriber-keys.js";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";
import type { FloorServerCpu } from "./http2-floor-server.js";

export interface Http2FloorOptions {
  /** Requests in the measured window. */
  readonly requests?: number;
  /** Requests sent first and not measured: JIT, TLS handshake, HPACK tables, buffers. */
  readonly warmUp?: number;
  /** Streams open at once on the one session. */
  readonly inFlight?: number;
  /** Request body size; default: a ~1 KB notification once encrypted. */
  readonly bodyBytes?: number;
}

export interface Http2Floor {
  readonly requests: number;
  readonly inFlight: number;
  readonly bodyBytes: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  /** CPU (user + system, all threads) of the client process per request, µs. */
  readonly clientUsPerRequest: number;
  /** CPU of the server process per request, µs. */
  readonly serverUsPerRequest: number;
}

/** About what `npm run bench`'s ~1 KB notification is once encrypted (1,197 bytes). */
const DEFAULT_BODY_BYTES = 1200;

const CPU_PATH = "/_floor/cpu"; // answered by http2-floor-server.ts

export async function measureHttp2Floor(options: Http2FloorOptions = {}): Promise<Http2Floor> {
  const requests = options.requests ?? 20_000;
  const warmUp = options.warmUp ?? 2_000;
  const inFlight = options.inFlight ?? 256;
  const bodyBytes = options.bodyBytes ?? DEFAULT_BODY_BYTES;
  const tls = loadTestTls();
  const server = await spawnFloorServer();
  const session = connect(server.origin, { ca: tls.ca, settings: { enablePush: false } });
  try {
    session.on("error", () => undefined); // surfaces as failed streams, counted below
    await once(session, "remoteSettings");
    // The headers Sino sends (request.ts), with a VAPID token signed once, as its signer caches it.
    const template = buildEncryptedPushRequest(
      `${server.origin}/push/x`,
      randomBytes(bodyBytes),
      { ttl: 86_400, urgency: "normal" },
      createVapidSigner({ keys: generateVapidKeys(), subject: "mailto:bench@sino.example.com" }),
    );
    const send = (prefix: string, count: number) => burst(session, template.headers, template.body, prefix, count, inFlight);

    const warm = await send("w", warmUp);
    if (warm !== warmUp) throw new Error(`HTTP/2 floor: ${warm}/${warmUp} warm-up requests accepted`);
    const serverBefore = await serverCpu(session);
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    const accepted = await send("f", requests);
    const seconds = (performance.now() - started) / 1000;
    const client = process.cpuUsage(clientBefore);
    const serverAfter = await serverCpu(session);
    if (accepted !== requests) throw new Error(`HTTP/2 floor: ${accepted}/${requests} requests accepted`);
    if (serverAfter.requests - serverBefore.requests !== requests) {
      throw new Error(`HTTP/2 floor: the server answered ${serverAfter.requests - serverBefore.requests} of ${requests}`);
    }
    return {
      requests,
      inFlight,
      bodyBytes,
      seconds,
      requestsPerSecond: Math.round(requests / seconds),
      clientUsPerRequest: round1((client.user + client.system) / requests),
      serverUsPerRequest: round1((serverAfter.cpuUs - serverBefore.cpuUs) / requests),
    };
  } finally {
    session.destroy();
    await server.close();
  }
}

/** The most Sino / ceiling can reach on the machine, from the CPU per push of each part. */
export function ceilingRatioBound(encryptUs: number, clientUs: number, serverUs: number): number {
  return Math.round((encryptUs / (encryptUs + clientUs + serverUs)) * 100) / 100;
}

/** The two lines `npm run bench` and this script print. */
export function describeFloor(floor: Http2Floor, encryptUs: number): string[] {
  const bound = ceilingRatioBound(encryptUs, floor.clientUsPerRequest, floor.serverUsPerRequest);
  return [
    `floor:    node:http2 client ${Math.round(floor.clientUsPerRequest)} µs + server ${Math.round(floor.serverUsPerRequest)} µs per request; ` +
      `encryption ${Math.round(encryptUs)} µs per message (1 thread) ` +
      `[${floor.requestsPerSecond} req/s, ${floor.inFlight} in flight, ${floor.bodyBytes}-byte bodies]`,
    `bound:    Sino / ceiling ≤ E/(E+C+S) = ${bound} on this machine (Node's HTTP/2 at both ends)`,
  ];
}

/**
 * Encryption CPU per message on one thread, µs: `durationMs` of back-to-back RFC 8291 encryptions
 * on this thread (the encryptor and the distinct recipients the ceiling's worker uses), divided by
 * the process's CPU time over them. CPU time, like C and S, not wall time: on a machine shared
 * with other work a thread is not always running, and wall time would inflate E and the bound.
 */
export function measureEncryptUsPerMessage(options: { durationMs: number; payloadBytes: number }): number {
  const keys = Array.from({ length: 256 }, () => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    return prepareSubscriberKeys({ p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") });
  });
  const plaintext = randomBytes(options.payloadBytes);
  const encrypt = createPayloadEncryptor();
  const run = (durationMs: number): number => {
    const end = performance.now() + durationMs;
    let count = 0;
    while (performance.now() < end) {
      for (let i = 0; i < 32; i++) encrypt(plaintext, keys[count++ & 255]!);
    }
    return count;
  };
  run(200); // warm-up: JIT and OpenSSL tables
  const before = process.cpuUsage();
  const count = run(options.durationMs);
  const cpu = process.cpuUsage(before);
  return round1((cpu.user + cpu.system) / count);
}

/**
 * Sends `count` POSTs keeping `inFlight` streams open; resolves with how many were answered 201.
 * Plain callbacks, no promise per request: the floor should carry no cost of its own.
 */
function burst(
  session: ClientHttp2Session,
  headers: Readonly<Record<string, string>>,
  body: Buffer,
  prefix: string,
  count: number,
  inFlight: number,
): Promise<number> {
  return new Promise((done) => {
    let started = 0;
    let finished = 0;
    let accepted = 0;
    const next = (): void => {
      const stream = session.request({ ":method": "POST", ":path": `/push/${prefix}${started++}`, ...headers });
      let status = 0;
      stream.on("response", (h) => {
        status = Number(h[":status"]);
      });
      stream.on("error", () => undefined); // counted as not accepted
      stream.on("close", () => {
        if (status === 201) accepted++;
        finished++;
        if (started < count) next();
        else if (finished === count) done(accepted);
      });
      stream.resume();
      stream.end(body);
    };
    if (count === 0) done(0);
    for (let i = 0; i < Math.min(inFlight, count); i++) next();
  });
}

function serverCpu(session: ClientHttp2Session): Promise<FloorServerCpu> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ":method": "GET", ":path": CPU_PATH }, { endStream: true });
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")) as FloorServerCpu);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    stream.on("error", reject);
  });
}

/** Starts http2-floor-server.ts in a child process (through tsx), like the fake push service. */
async function spawnFloorServer(): Promise<{ origin: string; process: ChildProcess; close(): Promise<void> }> {
  const script = fileURLToPath(new URL("./http2-floor-server.ts", import.meta.url));
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const ready = JSON.parse(line) as { ready?: boolean; origin?: string };
      if (ready.ready === true && typeof ready.origin === "string") resolve(ready.origin);
      else reject(new Error(`HTTP/2 floor server: unexpected first line ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`HTTP/2 floor server exited (${code}) before it was ready`)));
  });
  return {
    origin,
    process: child,
    async close() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

const round1 = (x: number): number => Math.round(x * 10) / 10;

// ── run alone ───────────────────────────────────────────────────────────────────────────────
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      requests: { type: "string", default: "20000" },
      "warm-up": { type: "string", default: "2000" },
      inflight: { type: "string", default: "256" },
      body: { type: "string", default: String(DEFAULT_BODY_BYTES) },
      "encrypt-ms": { type: "string", default: "3000" },
    },
  });
  const bodyBytes = Number(values.body);
  const floor = await measureHttp2Floor({
    requests: Number(values.requests),
    warmUp: Number(values["warm-up"]),
    inFlight: Number(values.inflight),
    bodyBytes,
  });
  const encryptUs = measureEncryptUsPerMessage({
    durationMs: Number(values["encrypt-ms"]),
    payloadBytes: Math.max(1, bodyBytes - encryptedLength(0)),
  });
  for (const line of describeFloor(floor, encryptUs)) console.log(line);
  console.log(
    JSON.stringify({
      ...floor,
      seconds: Math.round(floor.seconds * 100) / 100,
      encryptUsPerMessage: encryptUs,
      ceilingRatioBound: ceilingRatioBound(encryptUs, floor.clientUsPerRequest, floor.serverUsPerRequest),
    }),
  );
}
