import { createECDH } from "node:crypto";
import webpush from "web-push";
import { describe, expect, it } from "vitest";
import { generateVapidTestKeys, scalarBytes } from "./vapid-token.js";

describe("generateVapidTestKeys", () => {
  it("keeps the scalar's leading zero bytes: a key OpenSSL prints as 31 bytes is still 32 on the wire", () => {
    // Find a real key whose scalar starts with a zero byte (one in 256), deterministically bounded.
    let short: Buffer | undefined;
    let ecdh = createECDH("prime256v1");
    for (let i = 0; i < 20_000 && short === undefined; i++) {
      ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      if (ecdh.getPrivateKey().length < 32) short = ecdh.getPrivateKey();
    }
    expect(short, "no key with a leading zero byte in 20,000 tries").toBeDefined();
    const padded = scalarBytes(ecdh);
    expect(padded.length).toBe(32);
    expect(padded[0]).toBe(0);
    expect(padded.subarray(32 - short!.length).equals(short!)).toBe(true);
    // web-push (what the Firefox test signs with) accepts it, and it still names the same point.
    const check = createECDH("prime256v1");
    check.setPrivateKey(padded);
    expect(check.getPublicKey().equals(ecdh.getPublicKey())).toBe(true);
    expect(() => webpush.setVapidDetails("mailto:a@sino.example", ecdh.getPublicKey().toString("base64url"), padded.toString("base64url"))).not.toThrow();
  });

  it("always gives a 32-byte private key", () => {
    for (let i = 0; i < 2_000; i++) {
      expect(Buffer.from(generateVapidTestKeys().privateKey, "base64url").length).toBe(32);
    }
  });
});
