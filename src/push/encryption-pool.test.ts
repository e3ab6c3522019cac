import { createECDH, randomBytes, type ECDH } from "node:crypto";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeBase64Url } from "./base64url.js";
import { createEncryptionPool, type EncryptionPool } from "./encryption-pool.js";

const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(body: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string }): Buffer;
};

function subscriber() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { ecdh, keys: { p256dh: encodeBase64Url(ecdh.getPublicKey()), auth: encodeBase64Url(randomBytes(16)) } };
}

let pool: EncryptionPool;
beforeAll(() => {
  pool = createEncryptionPool({ threads: 2 });
});
afterAll(async () => {
  await pool.close();
});

describe("createEncryptionPool (worker threads, loaded from .ts under vitest)", () => {
  it("encrypts a batch in workers; each body decrypts with its own subscriber's key", async () => {
    const subscribers = Array.from({ length: 64 }, subscriber);
    const plaintext = randomBytes(1000);
    const items = await pool.encryptBatch(plaintext, subscribers.map((s) => s.keys));
    expect(items).toHaveLength(64);
    items.forEach((item, i) => {
      if (!Buffer.isBuffer(item)) throw new Error(`item ${i} failed: ${item.error}`);
      expect(item.length).toBe(86 + 1000 + 17);
      const s = subscribers[i]!;
      expect(ece.decrypt(item, { version: "aes128gcm", privateKey: s.ecdh, authSecret: s.keys.auth }).equals(plaintext)).toBe(true);
    });
  });

  it("runs batches on both threads at once", async () => {
    const keys = Array.from({ length: 128 }, () => subscriber().keys);
    const batches = await Promise.all([pool.encryptBatch("a", keys), pool.encryptBatch("b", keys), pool.encryptBatch("c", keys)]);
    expect(batches.flat().filter(Buffer.isBuffer)).toHaveLength(384);
  });

  it("marks a bad subscription in its slot and encrypts the rest", async () => {
    const good = subscriber();
    const items = await pool.encryptBatch("oi", [good.keys, { p256dh: "bad", auth: good.keys.auth }, good.keys]);
    expect(Buffer.isBuffer(items[0])).toBe(true);
    expect(items[1]).toEqual({ error: "p256dh_invalid" });
    expect(Buffer.isBuffer(items[2])).toBe(true);
  });

  it("refuses an oversize plaintext before queuing it", async () => {
    await expect(pool.encryptBatch(Buffer.alloc(3994), [subscriber().keys])).rejects.toMatchObject({ code: "payload_too_large" });
  });
});

describe("an encryption pool's stats (metrics)", () => {
  it("counts tasks in the pool, messages, and busy thread-seconds never above threads × time", async () => {
    const single = createEncryptionPool({ threads: 1 });
    try {
      expect(single.stats()).toEqual({ threads: 1, tasks: 0, busySeconds: 0, messages: 0 });
      const started = performance.now();
      const keys = Array.from({ length: 10 }, () => subscriber().keys);
      const batches = [single.encryptBatch("olá", keys), single.encryptBatch("olá", keys)];
      // Both handed over at once: one runs on the thread, the other waits for it.
      expect(single.stats().tasks).toBe(2);
      await Promise.all(batches);
      const elapsedSeconds = (performance.now() - started) / 1000;
      const stats = single.stats();
      expect(stats).toMatchObject({ threads: 1, tasks: 0, messages: 20 });
      expect(stats.busySeconds).toBeGreaterThan(0);
      // One thread cannot be busy longer than the time that passed (two tasks' wall times would be).
      expect(stats.busySeconds).toBeLessThanOrEqual(elapsedSeconds);
    } finally {
      await single.close();
    }
  });
});
