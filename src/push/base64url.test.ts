import { describe, expect, it } from "vitest";
import { decodeBase64Url, encodeBase64Url, isBase64UrlText } from "./base64url.js";

describe("base64url", () => {
  it("round-trips every length from 0 to 70 bytes", () => {
    for (let n = 0; n <= 70; n++) {
      const bytes = Buffer.from(Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff));
      expect(decodeBase64Url(encodeBase64Url(bytes))?.equals(bytes)).toBe(true);
    }
  });
  it("encodes a view of a larger buffer without its neighbours", () => {
    const big = Buffer.from([1, 2, 3, 4, 5]);
    expect(encodeBase64Url(big.subarray(1, 3))).toBe(Buffer.from([2, 3]).toString("base64url"));
  });
  it.each([["AQ=="], ["A+/B"], ["a b"], ["A"], ["AR"], ["AQI!"]])("refuses %j", (text) => {
    expect(decodeBase64Url(text)).toBeUndefined();
  });
  it("accepts the empty string as zero bytes", () => {
    expect(decodeBase64Url("")?.length).toBe(0);
  });
  it("checks alphabet and length of plain tokens", () => {
    expect(isBase64UrlText("abc-_9", 32)).toBe(true);
    expect(isBase64UrlText("", 32)).toBe(false);
    expect(isBase64UrlText("a".repeat(33), 32)).toBe(false);
    expect(isBase64UrlText("a=b", 32)).toBe(false);
  });
});
