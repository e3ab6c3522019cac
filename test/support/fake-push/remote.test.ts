import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnFakePushService } from "./remote.js";
import { subscriberKeysFor, subscriptionJson } from "./keys.js";
import { createH2Client, type PushHeaders } from "./test-client.js";
import { generateVapidTestKeys } from "./vapid-token.js";
import webpush from "web-push";

const vapid = generateVapidTestKeys();
let fake: Awaited<ReturnType<typeof spawnFakePushService>>;

function request(id: string, payload: string) {
  const details = webpush.generateRequestDetails(subscriptionJson(fake.endpointFor(id), subscriberKeysFor("bench-seed", id)), payload, {
    vapidDetails: { subject: "mailto:ops@sino.example", publicKey: vapid.publicKey, privateKey: vapid.privateKey },
  });
  return { path: new URL(details.endpoint).pathname, headers: details.headers as PushHeaders, body: details.body ?? undefined };
}

beforeAll(async () => {
  fake = await spawnFakePushService({ seed: "bench-seed", decryptSample: 1 });
});
afterAll(async () => {
  await fake.close();
});

describe("the fake push service in its own process", () => {
  it("prints its origin, accepts pushes with the shared seed, and is driven over /_fake/", async () => {
    expect(fake.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const client = createH2Client(fake.origin);
    try {
      const first = request("1", "primeiro");
      expect((await client.post(first.path, first.headers, first.body)).status).toBe(201);

      await fake.setBehaviour({ id: "2", times: 1, action: { kind: "status", status: 429, retryAfter: 7 } });
      const second = request("2", "segundo");
      const throttled = await client.post(second.path, second.headers, second.body);
      expect([throttled.status, throttled.headers["retry-after"]]).toEqual([429, "7"]);

      const stats = await fake.stats({ byId: true });
      expect(stats.acceptedById).toEqual({ "1": 1 });
      expect(stats.statuses).toEqual({ "201": 1, "429": 1 });
      expect(stats.decrypted).toEqual({ ok: 1, failed: 0 });
      expect(stats.log[0]?.plaintext).toBe("primeiro");

      await fake.reset();
      expect((await fake.stats()).requests).toBe(0);
      await expect(fake.setBehaviour({ times: -1 })).rejects.toThrow(/400/);
    } finally {
      await client.close();
    }
  });

  it("stops on close()", async () => {
    const other = await spawnFakePushService();
    await other.close();
    expect([other.process.exitCode, other.process.signalCode]).toEqual([0, null]);
  });
});
