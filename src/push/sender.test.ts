import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakePushService, type FakePushService } from "../../test/support/fake-push/fake-push-service.js";
import { subscriberKeysFor, subscriptionJson } from "../../test/support/fake-push/keys.js";
import { loadTestTls } from "../../test/support/fake-push/test-tls.js";
import { createPushSender, type PushSender } from "./sender.js";
import { createPushTransport, type PushTransport } from "./transport.js";
import { createVapidSigner } from "./vapid.js";
import { generateVapidKeys } from "./vapid-keys.js";

// The fake push service checks VAPID and decrypts with http_ece independently of this module.
let fake: FakePushService;
let transport: PushTransport;
let sender: PushSender;
const keys = generateVapidKeys();

function target(id: string) {
  return subscriptionJson(fake.endpointFor(id), subscriberKeysFor("sino-fake-push", id));
}

beforeAll(async () => {
  fake = await startFakePushService();
  transport = createPushTransport({
    policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
    ca: loadTestTls().ca,
    requestTimeoutMs: 1_000,
  });
  sender = createPushSender({
    vapid: createVapidSigner({ keys, subject: "mailto:ops@sino.example.com" }),
    transport,
    random: () => 0.5,
  });
});
afterAll(async () => {
  await transport.close();
  await fake.close();
});
beforeEach(() => {
  fake.reset();
});

describe("createPushSender against the fake push service", () => {
  it("delivers a message the service decrypts, with valid VAPID and the RFC 8030 headers", async () => {
    const outcome = await sender.send(target("s1"), JSON.stringify({ title: "Olá" }), { ttl: 3600, urgency: "high", topic: "promo-1" });
    expect(outcome).toMatchObject({ kind: "ok", status: 201 });
    const stats = fake.stats();
    expect(stats.decrypted).toEqual({ ok: 1, failed: 0 });
    expect(stats.log[0]).toMatchObject({ id: "s1", ttl: "3600", urgency: "high", topic: "promo-1", contentEncoding: "aes128gcm", plaintext: JSON.stringify({ title: "Olá" }) });
    expect(stats.protocols.h2).toBe(1);
  });

  it("delivers 100 messages concurrently, each to its subscription, on the open HTTP/2 connection", async () => {
    const before = transport.stats().connections.h2;
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => sender.send(target(`m${i}`), `mensagem ${i}`)));
    expect(outcomes.every((o) => o.kind === "ok")).toBe(true);
    const stats = fake.stats();
    expect(stats.accepted).toBe(100);
    expect(stats.acceptedById.size).toBe(100);
    expect(stats.decrypted).toEqual({ ok: 100, failed: 0 });
    expect(before).toBe(1);
    expect(transport.stats().connections.h2).toBe(1); // the first test's connection, reused
  });

  it("sends a push without data as an empty body without content headers", async () => {
    expect(await sender.send(target("empty"), null)).toMatchObject({ kind: "ok" });
    expect(fake.stats().log[0]).toMatchObject({ bodyLength: 0, contentEncoding: undefined });
  });

  it("refuses a 3994-byte payload before any network call", async () => {
    const outcome = await sender.send(target("big"), Buffer.alloc(3994));
    expect(outcome).toMatchObject({ kind: "fatal", reason: "payload_too_large" });
    expect(fake.stats().requests).toBe(0);
  });

  it("refuses a bad topic before any network call", async () => {
    expect(await sender.send(target("t"), "x", { topic: "has space" })).toMatchObject({ kind: "fatal", reason: "topic_invalid" });
    expect(fake.stats().requests).toBe(0);
  });

  it("classifies 410 as gone", async () => {
    fake.setBehaviour({ id: "gone", action: { kind: "status", status: 410 } });
    expect(await sender.send(target("gone"), "x")).toMatchObject({ kind: "gone", status: 410 });
  });

  it("classifies 429 with Retry-After as a retry at that time", async () => {
    fake.setBehaviour({ id: "busy", action: { kind: "status", status: 429, retryAfter: 120 } });
    const before = Date.now();
    const outcome = await sender.send(target("busy"), "x");
    expect(outcome).toMatchObject({ kind: "retry", reason: "rate_limited", status: 429 });
    const at = (outcome as { at: number }).at;
    expect(at).toBeGreaterThanOrEqual(before + 120_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 120_000);
  });

  it("flags the subscription on 403 (VAPID key mismatch) without retry", async () => {
    fake.registerKeys("other-key", { ...subscriberKeysFor("sino-fake-push", "other-key"), vapidKey: generateVapidKeys().publicKey });
    expect(await sender.send(target("other-key"), "x")).toMatchObject({ kind: "fatal", reason: "vapid_mismatch", flag: "vapid_mismatch", status: 403 });
  });

  it("retries a hanging push service after the request timeout", async () => {
    fake.setBehaviour({ id: "hang", times: 1, action: { kind: "hang" } });
    expect(await sender.send(target("hang"), "x")).toMatchObject({ kind: "retry", reason: "timeout", error: "timeout" });
  });

  it("retries a reset stream", async () => {
    fake.setBehaviour({ id: "reset", times: 1, action: { kind: "reset" } });
    expect(await sender.send(target("reset"), "x")).toMatchObject({ kind: "retry", reason: "reset" });
    // The connection is still good for the next message.
    expect(await sender.send(target("reset"), "x")).toMatchObject({ kind: "ok" });
  });

  it("gives up on a 500 when the attempts are used up", async () => {
    fake.setBehaviour({ id: "e500", action: { kind: "status", status: 500 } });
    expect(await sender.send(target("e500"), "x", { attempt: 1 })).toMatchObject({ kind: "retry", reason: "server_error" });
    expect(await sender.send(target("e500"), "x", { attempt: 8 })).toMatchObject({ kind: "fatal", reason: "attempts_exhausted" });
  });

  it("does not retry past the message's TTL", async () => {
    fake.setBehaviour({ id: "e503", action: { kind: "status", status: 503 } });
    expect(await sender.send(target("e503"), "x", { ttl: 0 })).toMatchObject({ kind: "fatal", reason: "ttl_expired" });
  });

  it("keeps an endless error body short", async () => {
    fake.setBehaviour({ id: "endless", times: 1, action: { kind: "endless-body", status: 400 } });
    const outcome = await sender.send(target("endless"), "x");
    expect(outcome).toMatchObject({ kind: "fatal", reason: "bad_request", status: 400 });
    expect(outcome.detail?.length).toBeLessThanOrEqual(200);
  });

  it("finishes the streams a graceful GOAWAY lets through, without duplicates, and reconnects", async () => {
    fake.configure({ closeConnectionAfter: 10 });
    try {
      const sessionsBefore = transport.stats().connections.h2;
      for (const wave of [1, 2, 3]) {
        const outcomes = await Promise.all(Array.from({ length: 40 }, (_, i) => sender.send(target(`goaway${wave}-${i}`), "x")));
        expect(outcomes.map((o) => o.kind)).toEqual(Array(40).fill("ok"));
      }
      const stats = fake.stats();
      expect(stats.accepted).toBe(120);
      expect(stats.duplicateAcceptances).toBe(0);
      // Each GOAWAY retired a session; later waves went out on new ones.
      expect(transport.stats().connections.h2).toBeGreaterThan(sessionsBefore);
    } finally {
      fake.configure({ closeConnectionAfter: null });
    }
  });
});

describe("transport close", () => {
  it("lets requests in flight finish, then refuses new ones", async () => {
    const t = createPushTransport({
      policy: { allowedHosts: ["127.0.0.1"], allowPrivateAddresses: true, maxLength: 1024 },
      ca: loadTestTls().ca,
    });
    const s = createPushSender({ vapid: createVapidSigner({ keys, subject: "mailto:ops@sino.example.com" }), transport: t });
    fake.setBehaviour({ latencyMs: 100 });
    const inFlight = Array.from({ length: 5 }, (_, i) => s.send(target(`close${i}`), "x"));
    const closed = t.close();
    const outcomes = await Promise.all(inFlight);
    await closed;
    expect(outcomes.map((o) => o.kind)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(await s.send(target("after"), "x")).toMatchObject({ kind: "retry", error: "network" });
  });
});
