import { describe, expect, it } from "vitest";
import { base64UrlToBytes, sameKey } from "./base64url.js";

describe("base64UrlToBytes", () => {
  it("decodes the URL-safe alphabet without padding", () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xfe, 0x00, 0x01]);
    const encoded = Buffer.from(bytes).toString("base64url");
    expect(encoded).toMatch(/[-_]/);
    expect(Array.from(base64UrlToBytes(encoded))).toEqual(Array.from(bytes));
  });

  it("accepts padded input", () => {
    expect(Array.from(base64UrlToBytes("AQI="))).toEqual([1, 2]);
  });
});

describe("sameKey", () => {
  it("compares an ArrayBuffer with bytes", () => {
    const key = Uint8Array.from([4, 1, 2, 3]);
    expect(sameKey(key.slice().buffer, key)).toBe(true);
    expect(sameKey(Uint8Array.from([4, 1, 2, 4]).buffer, key)).toBe(false);
    expect(sameKey(null, key)).toBe(false);
    expect(sameKey(new ArrayBuffer(3), key)).toBe(false);
  });
});
