import { describe, expect, it } from "vitest";
import { safeHttpUrl } from "./safe-link.js";

const origin = "https://sino.example.com.br";

describe("safeHttpUrl", () => {
  it.each([
    ["an https link", "https://www.gov.br/noticias", "https://www.gov.br/noticias"],
    ["an http link", "http://example.com/a", "http://example.com/a"],
    ["a path on this site", "/avisos/7", "https://sino.example.com.br/avisos/7"],
  ])("keeps %s", (_name, value, expected) => {
    expect(safeHttpUrl(value, origin)).toBe(expected);
  });

  it.each([
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a link with credentials", "https://user:pass@evil.example/"],
    ["nothing", null],
    ["an empty string", ""],
  ])("refuses %s", (_name, value) => {
    expect(safeHttpUrl(value, origin)).toBeNull();
  });
});
