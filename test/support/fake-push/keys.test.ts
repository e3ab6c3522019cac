import { createECDH } from "node:crypto";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { decryptPushBody } from "./decrypt.js";
import { subscriberKeysFor, subscriberSecretsFor, subscriptionJson } from "./keys.js";

describe("subscriberKeysFor", () => {
  it("derives the same keys for the same seed and id, and different ones otherwise", () => {
    const a = subscriberKeysFor("seed", "42");
    expect(subscriberKeysFor("seed", "42")).toEqual(a);
    expect(subscriberKeysFor("seed", "43").privateKey.equals(a.privateKey)).toBe(false);
    expect(subscriberKeysFor("other", "42").auth.equals(a.auth)).toBe(false);
  });

  it("has the same private key and auth in its secret half (what the fake decrypts with)", () => {
    for (const id of ["0", "42", "abc"]) {
      const { privateKey, auth } = subscriberKeysFor("seed", id);
      expect(subscriberSecretsFor("seed", id)).toEqual({ privateKey, auth });
    }
  });

  it("gives a valid P-256 pair: a 32-byte scalar whose public point is p256dh, and a 16-byte auth", () => {
    for (const id of ["0", "1", "999999", "abc"]) {
      const keys = subscriberKeysFor("seed", id);
      expect(keys.privateKey.length).toBe(32);
      expect(keys.auth.length).toBe(16);
      expect(keys.p256dh.length).toBe(65);
      const ecdh = createECDH("prime256v1");
      ecdh.setPrivateKey(keys.privateKey);
      expect(ecdh.getPublicKey().equals(keys.p256dh)).toBe(true);
    }
  });

  it("is what an independent encrypter (web-push) and decrypter (http_ece) agree on", () => {
    const keys = subscriberKeysFor("seed", "7");
    const details = webpush.generateRequestDetails(subscriptionJson("https://push.example/7", keys), "x".repeat(3993), {
      vapidDetails: { subject: "mailto:a@sino.example", ...webpush.generateVAPIDKeys() },
    });
    expect(decryptPushBody(details.body as Buffer, keys).toString()).toBe("x".repeat(3993));
  });

  it("refuses a body split into several records (RFC 8291 §4)", () => {
    const keys = subscriberKeysFor("seed", "8");
    const details = webpush.generateRequestDetails(subscriptionJson("https://push.example/8", keys), "hello", {
      vapidDetails: { subject: "mailto:a@sino.example", ...webpush.generateVAPIDKeys() },
    });
    const body = Buffer.from(details.body as Buffer);
    body.writeUInt32BE(18, 16); // claim tiny records
    expect(() => decryptPushBody(body, keys)).toThrow(/more than one record/);
  });
});
