import { createECDH, randomBytes } from "node:crypto";
import { once } from "node:events";
import { Client as UndiciClient } from "undici";
import webpush from "web-push";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakePushService, type FakePushService } from "./fake-push-service.js";
import { subscriberKeysFor, subscriptionJson } from "./keys.js";
import { createH2Client, http1Post, type H2Client, type PushHeaders } from "./test-client.js";
import { generateVapidTestKeys, signVapidJwt, vapidAuthorization } from "./vapid-token.js";

const vapid = generateVapidTestKeys();
let fake: FakePushService;
let client: H2Client;

/** A push exactly as the `web-push` library builds it (its own encryption and VAPID signer). */
function webPushRequest(id: string, payload: string, options: webpush.RequestOptions = {}) {
  const keys = subscriberKeysFor(fake.keySeed, id);
  const details = webpush.generateRequestDetails(subscriptionJson(fake.endpointFor(id), keys), payload, {
    vapidDetails: { subject: "mailto:ops@sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    TTL: 60,
    ...options,
  });
  const url = new URL(details.endpoint);
  return { path: url.pathname, url: details.endpoint, headers: details.headers as PushHeaders, body: details.body ?? undefined };
}

function push(id: string, payload = "olá", options: webpush.RequestOptions = {}) {
  const request = webPushRequest(id, payload, options);
  return client.post(request.path, request.headers, request.body);
}

/** Minimal valid headers for a hand-made request. */
function headers(extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: vapidAuthorization(vapid, fake.origin), ttl: "60", ...extra };
}

beforeAll(async () => {
  fake = await startFakePushService();
  client = createH2Client(fake.origin, fake.ca);
  // Connected before the first reset(), so per-test connection counts do not include it.
  await once(client.session, "connect");
});
afterAll(async () => {
  await client.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
  fake.configure({ decryptSample: 1, closeConnectionAfter: null, vapidPublicKey: null });
});

describe("accepting pushes", () => {
  it("accepts a web-push request over HTTP/2 with 201 and decrypts it with the derived keys", async () => {
    const reply = await push("sub-1", "Promoção de hoje");
    expect(reply.status).toBe(201);
    expect(reply.headers.location).toMatch(new RegExp(`^${fake.origin}/m/\\d+$`));
    const stats = fake.stats();
    expect(stats.protocols).toEqual({ h2: 1, "http/1.1": 0 });
    expect(stats.acceptedById.get("sub-1")).toBe(1);
    expect(stats.decrypted).toEqual({ ok: 1, failed: 0 });
    expect(stats.log[0]).toMatchObject({ id: "sub-1", status: 201, plaintext: "Promoção de hoje", ttl: "60", urgency: "normal" });
  });

  it("serves HTTP/1.1 too", async () => {
    const request = webPushRequest("sub-h1", "via http/1.1");
    const reply = await http1Post(request.url, request.headers, request.body, fake.ca);
    expect(reply.status).toBe(201);
    expect(fake.stats().protocols).toEqual({ h2: 0, "http/1.1": 1 });
    expect(fake.stats().log[0]?.plaintext).toBe("via http/1.1");
  });

  it("takes HTTP/2 from undici (the client Sino's transport is built on), many streams on one connection", async () => {
    const undici = new UndiciClient(fake.origin, { allowH2: true, connect: { ca: fake.ca } });
    try {
      const replies = await Promise.all(
        ["u1", "u2", "u3"].map(async (id) => {
          const request = webPushRequest(id, `undici ${id}`);
          const { statusCode, body } = await undici.request({ method: "POST", path: request.path, headers: request.headers as Record<string, string>, body: request.body });
          await body.dump();
          return statusCode;
        }),
      );
      expect(replies).toEqual([201, 201, 201]);
      const stats = fake.stats();
      expect(stats.protocols.h2).toBe(3);
      expect(stats.connections).toBe(1);
      expect(stats.decrypted.ok).toBe(3);
    } finally {
      await undici.close();
    }
  });

  it("decrypts for keys registered by a browser-made subscription", async () => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const auth = randomBytes(16);
    fake.registerKeys("browser-1", { privateKey: ecdh.getPrivateKey(), auth });
    const details = webpush.generateRequestDetails(subscriptionJson(fake.endpointFor("browser-1"), { p256dh: ecdh.getPublicKey(), auth }), "oi", {
      vapidDetails: { subject: "https://sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    });
    const reply = await client.post(new URL(details.endpoint).pathname, details.headers as PushHeaders, details.body ?? undefined);
    expect(reply.status).toBe(201);
    expect(fake.stats().log[0]?.plaintext).toBe("oi");
  });

  it("records a decryption failure for a body encrypted for other keys, yet accepts it like a real service", async () => {
    const other = subscriberKeysFor(fake.keySeed, "someone-else");
    const details = webpush.generateRequestDetails(subscriptionJson(fake.endpointFor("victim"), other), "not for you", {
      vapidDetails: { subject: "mailto:ops@sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey },
    });
    const reply = await client.post(new URL(details.endpoint).pathname, details.headers as PushHeaders, details.body ?? undefined);
    expect(reply.status).toBe(201);
    expect(fake.stats().decrypted).toEqual({ ok: 0, failed: 1 });
    expect(fake.stats().log[0]?.decryptError).toBeTruthy();
  });

  it("counts acceptances per id, so a skipped or doubled subscription shows", async () => {
    await Promise.all([push("a"), push("b"), push("b"), push("c"), push("c"), push("c")]);
    const stats = fake.stats();
    expect(Object.fromEntries(stats.acceptedById)).toEqual({ a: 1, b: 2, c: 3 });
    expect(stats.duplicateIds).toBe(2);
    expect(stats.duplicateAcceptances).toBe(3);
    expect(stats.accepted).toBe(6);
  });

  it("decrypts only one body in N when sampling", async () => {
    fake.configure({ decryptSample: 3 });
    for (let i = 0; i < 6; i++) await push(`s${i}`);
    expect(fake.stats().decrypted).toEqual({ ok: 2, failed: 0 });
    expect(fake.stats().accepted).toBe(6);
  });

  it("accepts an empty body (a push without payload) without Content-Encoding", async () => {
    const reply = await client.post("/push/empty", headers());
    expect(reply.status).toBe(201);
  });

  it("sends 100 Continue over HTTP/2 to a client that waits for it before its body", async () => {
    const request = webPushRequest("continue", "depois do 100");
    const status = await new Promise<number>((resolve, reject) => {
      const lower = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      const stream = client.session.request({ ":method": "POST", ":path": request.path, ...lower, expect: "100-continue" }, { endStream: false });
      stream.on("continue", () => stream.end(request.body));
      stream.on("response", (h) => resolve(Number(h[":status"])));
      stream.on("error", reject);
    });
    expect(status).toBe(201);
    expect(fake.stats().log[0]?.plaintext).toBe("depois do 100");
  });

  it("waitForAccepted resolves once the count is reached", async () => {
    const waiting = fake.waitForAccepted(3);
    await Promise.all([push("w1"), push("w2"), push("w3")]);
    await expect(waiting).resolves.toBeUndefined();
  });
});

describe("VAPID checks (RFC 8292)", () => {
  const now = (): number => Math.floor(Date.now() / 1000);
  const jwt = (claims: Record<string, unknown>): string =>
    signVapidJwt(vapid, { aud: fake.origin, exp: now() + 3600, sub: "mailto:ops@sino.example", ...claims });
  const cases: [string, () => string | undefined, number, string][] = [
    ["missing", () => undefined, 401, "missing"],
    ["another scheme", () => `WebPush ${jwt({})}`, 401, "malformed"],
    ["no k parameter", () => `vapid t=${jwt({})}`, 401, "malformed"],
    ["wrong aud", () => `vapid t=${jwt({ aud: "https://fcm.googleapis.com" })}, k=${vapid.publicKey}`, 403, "wrong_aud"],
    ["expired", () => `vapid t=${jwt({ exp: now() - 10 })}, k=${vapid.publicKey}`, 403, "expired"],
    ["exp more than 24 h ahead", () => `vapid t=${jwt({ exp: now() + 24 * 3600 + 120 })}, k=${vapid.publicKey}`, 403, "exp_too_far"],
    ["no sub", () => `vapid t=${jwt({ sub: undefined })}, k=${vapid.publicKey}`, 403, "bad_sub"],
    ["sub not mailto/https", () => `vapid t=${jwt({ sub: "http://sino.example" })}, k=${vapid.publicKey}`, 403, "bad_sub"],
    ["signed by another key", () => `vapid t=${signVapidJwt(generateVapidTestKeys(), { aud: fake.origin, exp: now() + 60, sub: "mailto:a@b.c" })}, k=${vapid.publicKey}`, 403, "bad_signature"],
    ["alg none", () => `vapid t=${signVapidJwt(vapid, { aud: fake.origin, exp: now() + 60, sub: "mailto:a@b.c" }, { alg: "none" })}, k=${vapid.publicKey}`, 403, "bad_alg"],
    ["k not a P-256 point", () => `vapid t=${jwt({})}, k=${Buffer.alloc(65, 4).toString("base64url")}`, 403, "bad_key"],
  ];
  for (const [name, authorization, status, reason] of cases) {
    it(`refuses a token with ${name} (${status})`, async () => {
      const value = authorization();
      const reply = await client.post("/push/v", { ttl: "60", ...(value === undefined ? {} : { authorization: value }) });
      expect(reply.status).toBe(status);
      expect(fake.stats().vapidFailures).toEqual({ [reason]: 1 });
      expect(fake.stats().accepted).toBe(0);
    });
  }

  it("accepts a 24 h token and a token with the k and t parameters swapped", async () => {
    const token = jwt({ exp: now() + 24 * 3600 });
    expect((await client.post("/push/v", { ttl: "0", authorization: `vapid k=${vapid.publicKey}, t=${token}` })).status).toBe(201);
  });

  it("refuses a valid token from another key than the subscription's (403 key_mismatch)", async () => {
    fake.configure({ vapidPublicKey: generateVapidTestKeys().publicKey });
    const reply = await push("k1");
    expect(reply.status).toBe(403);
    expect(fake.stats().vapidFailures).toEqual({ key_mismatch: 1 });
  });

  it("keeps accepting the same cached token", async () => {
    const authorization = vapidAuthorization(vapid, fake.origin);
    for (let i = 0; i < 5; i++) expect((await client.post("/push/c", { ttl: "1", authorization })).status).toBe(201);
  });
});

describe("RFC 8030 header and size checks", () => {
  it("requires TTL (400 without it)", async () => {
    const reply = await client.post("/push/t", { authorization: vapidAuthorization(vapid, fake.origin) });
    expect(reply.status).toBe(400);
  });

  it("refuses a TTL that is not a non-negative integer", async () => {
    expect((await client.post("/push/t", headers({ ttl: "-1" }))).status).toBe(400);
  });

  it("requires Content-Encoding aes128gcm on a body", async () => {
    const reply = await client.post("/push/t", headers({ "content-encoding": "aesgcm" }), Buffer.alloc(100));
    expect(reply.status).toBe(400);
  });

  it("validates Urgency and Topic", async () => {
    expect((await client.post("/push/t", headers({ urgency: "urgent" }))).status).toBe(400);
    expect((await client.post("/push/t", headers({ topic: "a".repeat(33) }))).status).toBe(400);
    expect((await client.post("/push/t", headers({ topic: "not base64url!" }))).status).toBe(400);
    expect((await client.post("/push/t", headers({ urgency: "very-low", topic: "a".repeat(32) }))).status).toBe(201);
    expect(fake.stats().log.at(-1)).toMatchObject({ urgency: "very-low", topic: "a".repeat(32) });
  });

  it("accepts 4096 body bytes and answers 413 to 4097", async () => {
    const h = headers({ "content-encoding": "aes128gcm" });
    expect((await client.post("/push/big", h, randomBytes(4096))).status).toBe(201);
    expect((await client.post("/push/big", h, randomBytes(4097))).status).toBe(413);
    expect((await http1Post(fake.endpointFor("big"), h, randomBytes(5000), fake.ca)).status).toBe(413);
  });

  it("answers 404 outside /push/<id> and 405 to another method", async () => {
    expect((await client.post("/elsewhere", headers())).status).toBe(404);
    const get = await new Promise<number>((resolve, reject) => {
      const stream = client.session.request({ ":method": "GET", ":path": "/push/x" });
      stream.on("response", (h) => resolve(Number(h[":status"])));
      stream.on("error", reject);
      stream.end();
    });
    expect(get).toBe(405);
  });
});

describe("behaviours", () => {
  for (const status of [202, 404, 410, 413, 500, 502] as const) {
    it(`answers ${status} when told to`, async () => {
      fake.setBehaviour({ action: status === 202 ? { kind: "accept", status } : { kind: "status", status } });
      expect((await push("st")).status).toBe(status);
      expect(fake.stats().statuses).toEqual({ [status]: 1 });
    });
  }

  it("answers 429 with Retry-After in seconds and 503 with an HTTP-date", async () => {
    const date = new Date(Date.now() + 120_000).toUTCString();
    fake.setBehaviour({ id: "r1", action: { kind: "status", status: 429, retryAfter: 30 } });
    fake.setBehaviour({ id: "r2", action: { kind: "status", status: 503, retryAfter: date } });
    const [a, b] = await Promise.all([push("r1"), push("r2")]);
    expect([a.status, a.headers["retry-after"]]).toEqual([429, "30"]);
    expect([b.status, b.headers["retry-after"]]).toEqual([503, date]);
  });

  it("still answers 401/403 to bad credentials while a status behaviour is set", async () => {
    fake.setBehaviour({ action: { kind: "status", status: 503 } });
    expect((await client.post("/push/x", { ttl: "60" })).status).toBe(401);
  });

  it("applies a counted rule to the next K requests only, then falls back", async () => {
    fake.setBehaviour({ action: { kind: "status", status: 503 }, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await push("k")).status);
    expect(statuses).toEqual([503, 503, 201, 201]);
    expect(fake.behaviours()).toEqual([]);
  });

  it("prefers a rule for the id over a global one", async () => {
    fake.setBehaviour({ action: { kind: "status", status: 500 } });
    fake.setBehaviour({ id: "gone", action: { kind: "status", status: 410 } });
    expect((await push("gone")).status).toBe(410);
    expect((await push("other")).status).toBe(500);
  });

  it("adds latency before answering", async () => {
    fake.setBehaviour({ latencyMs: 300, jitterMs: 50 });
    const started = performance.now();
    const reply = push("slow");
    await waitFor(() => fake.stats().requests === 1);
    expect(fake.stats().inFlight).toBe(1);
    expect((await reply).status).toBe(201);
    // A lower bound only: the reply cannot come before the delay (timers never fire early
    // by more than clock rounding).
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });

  it("hangs without answering until the client gives up", async () => {
    fake.setBehaviour({ action: { kind: "hang" } });
    const stream = client.session.request({ ":method": "POST", ":path": "/push/hang", ...headers() });
    let answered = false;
    stream.on("response", () => (answered = true));
    stream.on("error", () => {});
    stream.end();
    await waitFor(() => fake.stats().log.length === 1);
    expect(fake.stats().inFlight).toBe(1);
    stream.close();
    await waitFor(() => fake.stats().inFlight === 0);
    expect(answered).toBe(false);
    expect(fake.stats().statuses).toEqual({ hang: 1 });
  });

  it("resets an HTTP/2 stream, and the HTTP/1.1 connection", async () => {
    fake.setBehaviour({ action: { kind: "reset" }, times: 2 });
    await expect(push("reset")).rejects.toThrow(/reset|RST|stream/i);
    const request = webPushRequest("reset", "x");
    await expect(http1Post(request.url, request.headers, request.body, fake.ca)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect((await push("reset")).status).toBe(201);
  });

  it("resets the whole HTTP/2 connection", async () => {
    const own = createH2Client(fake.origin, fake.ca);
    fake.setBehaviour({ action: { kind: "reset-connection" }, times: 1 });
    await expect(own.post("/push/rc", headers())).rejects.toThrow();
    await waitFor(() => own.session.destroyed || own.session.closed);
    await own.close();
  });

  it("streams an endless body after the status", async () => {
    fake.setBehaviour({ action: { kind: "endless-body", status: 201 }, times: 1 });
    const received = await new Promise<{ status: number; bytes: number }>((resolve, reject) => {
      const stream = client.session.request({ ":method": "POST", ":path": "/push/endless", ...headers() });
      let status = 0;
      let bytes = 0;
      stream.on("response", (h) => (status = Number(h[":status"])));
      stream.on("data", (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > 1024 * 1024) {
          stream.close();
          resolve({ status, bytes });
        }
      });
      stream.on("end", () => reject(new Error("the endless body ended")));
      stream.on("error", reject);
      stream.end();
    });
    expect(received.status).toBe(201);
    expect(received.bytes).toBeGreaterThan(1024 * 1024);
  });

  it("closes an HTTP/2 connection with GOAWAY after N requests", async () => {
    fake.configure({ closeConnectionAfter: 2 });
    const own = createH2Client(fake.origin, fake.ca);
    const goaway = new Promise<void>((resolve) => own.session.once("goaway", () => resolve()));
    expect((await own.post("/push/n", headers())).status).toBe(201);
    expect((await own.post("/push/n", headers())).status).toBe(201);
    await goaway;
    await own.close();
  });

  it("closes an HTTP/1.1 connection after N requests", async () => {
    fake.configure({ closeConnectionAfter: 1 });
    const reply = await http1Post(fake.endpointFor("n1"), headers(), undefined, fake.ca);
    expect(reply.status).toBe(201);
    expect(reply.headers.connection).toBe("close");
  });

  it("refuses a nonsensical rule", () => {
    expect(() => fake.setBehaviour({ times: 0 })).toThrow(TypeError);
    expect(() => fake.setBehaviour({ action: { kind: "status", status: 99 } })).toThrow(TypeError);
  });
});

describe("concurrency", () => {
  it("records the concurrent peak", async () => {
    // Long enough that all 8 are held at once even on a busy machine.
    fake.setBehaviour({ latencyMs: 1000 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => push(`p${i}`)));
    expect(fake.stats().concurrentPeak).toBe(8);
    expect(fake.stats().inFlight).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
