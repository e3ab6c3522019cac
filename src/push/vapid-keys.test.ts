import { createSign, createVerify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase64Url, encodeBase64Url } from "./base64url.js";
import { generateVapidKeys, parseVapidKeys } from "./vapid-keys.js";

describe("generateVapidKeys", () => {
  it("makes a 65-byte uncompressed public point and a 32-byte private scalar", () => {
    for (let i = 0; i < 20; i++) {
      const keys = generateVapidKeys();
      const pub = decodeBase64Url(keys.publicKey);
      const priv = decodeBase64Url(keys.privateKey);
      expect(pub?.length).toBe(65);
      expect(pub?.[0]).toBe(4);
      expect(priv?.length).toBe(32);
    }
  });

  it("makes a pair whose private key signs what the public key verifies", () => {
    const parsed = parseVapidKeys(generateVapidKeys());
    const signature = createSign("sha256").update("x").sign(parsed.privateKeyObject);
    expect(createVerify("sha256").update("x").verify(parsed.publicKeyObject, signature)).toBe(true);
  });
});

describe("parseVapidKeys", () => {
  const good = generateVapidKeys();
  const other = generateVapidKeys();
  const cases: Array<[string, { publicKey: string; privateKey: string }]> = [
    ["a public key of another pair", { publicKey: other.publicKey, privateKey: good.privateKey }],
    ["a compressed public key", { publicKey: encodeBase64Url(Buffer.alloc(33, 2)), privateKey: good.privateKey }],
    ["a short private key", { publicKey: good.publicKey, privateKey: encodeBase64Url(Buffer.alloc(31, 1)) }],
    ["a zero private key", { publicKey: good.publicKey, privateKey: encodeBase64Url(Buffer.alloc(32)) }],
    ["padding in the public key", { publicKey: good.publicKey + "=", privateKey: good.privateKey }],
    ["standard base64 characters", { publicKey: good.publicKey.replace(/[-_]/g, "+"), privateKey: good.privateKey.replace(/[-_]/g, "/") + "+" }],
  ];
  it.each(cases)("refuses %s with vapid_key_invalid", (_name, keys) => {
    expect(() => parseVapidKeys(keys)).toThrow(expect.objectContaining({ code: "vapid_key_invalid" }));
  });

  it("accepts a matching pair and keeps the public key text", () => {
    expect(parseVapidKeys(good).publicKey).toBe(good.publicKey);
  });
});
