import { ECDH, createECDH, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkAuth, checkP256dh, decodeLenientBase64Url, isOnP256 } from "./key-policy.js";

function realPublicKey(): Buffer {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return ecdh.getPublicKey();
}

describe("p256dh checks", () => {
  it("accepts real P-256 public keys, padded or not", () => {
    for (let i = 0; i < 20; i++) {
      const key = realPublicKey();
      expect(isOnP256(key)).toBe(true);
      expect(checkP256dh(key.toString("base64url"))).toMatchObject({ ok: true, value: key.toString("base64url") });
      const padded = key.toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
      expect(checkP256dh(padded)).toMatchObject({ ok: true, value: key.toString("base64url") });
    }
  });

  it("refuses a point that is not on the curve", () => {
    const key = realPublicKey();
    key[64] = key[64]! ^ 0x01;
    expect(checkP256dh(key.toString("base64url"))).toEqual({ ok: false, code: "p256dh_off_curve" });
  });

  it("answers as OpenSSL does on valid points and on points with one bit of a coordinate flipped", () => {
    const openssl = (point: Buffer): boolean => {
      try {
        ECDH.convertKey(point, "prime256v1", undefined, undefined, "compressed");
        return true;
      } catch {
        return false;
      }
    };
    let refused = 0;
    for (let i = 0; i < 200; i++) {
      const key = realPublicKey();
      expect(isOnP256(key)).toBe(true);
      const bit = 8 + (i % 512);
      key[bit >> 3] = key[bit >> 3]! ^ (1 << (bit & 7));
      expect(isOnP256(key)).toBe(openssl(key));
      if (!isOnP256(key)) refused++;
    }
    expect(refused).toBe(200);
  });

  it("accepts the generator and refuses points with a coordinate of zero that are not on the curve", () => {
    const g = Buffer.from("046b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c2964fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5", "hex");
    expect(isOnP256(g)).toBe(true);
    const zeroX = Buffer.concat([Buffer.from([0x04]), Buffer.alloc(32), g.subarray(33)]);
    expect(isOnP256(zeroX)).toBe(false);
    const zeros = Buffer.concat([Buffer.from([0x04]), Buffer.alloc(64)]);
    expect(isOnP256(zeros)).toBe(false);
  });

  it("refuses coordinates at or above the field prime", () => {
    const key = Buffer.alloc(65, 0xff);
    key[0] = 0x04;
    expect(checkP256dh(key.toString("base64url"))).toEqual({ ok: false, code: "p256dh_off_curve" });
  });

  it.each([
    ["a compressed point", () => Buffer.concat([Buffer.from([0x02]), randomBytes(32)]).toString("base64url")],
    ["64 bytes", () => realPublicKey().subarray(0, 64).toString("base64url")],
    ["66 bytes", () => Buffer.concat([realPublicKey(), Buffer.from([0])]).toString("base64url")],
    ["a wrong prefix", () => Buffer.concat([Buffer.from([0x05]), realPublicKey().subarray(1)]).toString("base64url")],
    ["standard base64 alphabet", () => "+/" + realPublicKey().toString("base64url").slice(2)],
    ["an empty string", () => ""],
  ])("refuses %s", (_name, make) => {
    expect(checkP256dh(make())).toEqual({ ok: false, code: "p256dh_invalid" });
  });
});

describe("auth checks", () => {
  it("accepts 16 bytes, padded or not", () => {
    const auth = randomBytes(16);
    expect(checkAuth(auth.toString("base64url"))).toMatchObject({ ok: true, value: auth.toString("base64url") });
    expect(checkAuth(auth.toString("base64url") + "==")).toMatchObject({ ok: true, value: auth.toString("base64url") });
  });
  it.each([15, 17, 0])("refuses %i bytes", (n) => {
    expect(checkAuth(randomBytes(n).toString("base64url"))).toEqual({ ok: false, code: "auth_invalid" });
  });
  it("refuses misplaced padding", () => {
    expect(decodeLenientBase64Url("AAAA=")).toBeUndefined();
    expect(decodeLenientBase64Url("AA=A")).toBeUndefined();
  });
});
