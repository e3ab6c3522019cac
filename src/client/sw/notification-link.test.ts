import { describe, expect, it } from "vitest";
import { resolveNotificationLink } from "./notification-link.js";

const origin = "https://sino.example.com.br";

describe("resolveNotificationLink", () => {
  it.each([
    ["a same-origin absolute link", "https://sino.example.com.br/avisos/42", "https://sino.example.com.br/avisos/42"],
    ["a relative path", "/avisos/42?x=1#top", "https://sino.example.com.br/avisos/42?x=1#top"],
    ["a path without a leading slash", "avisos", "https://sino.example.com.br/avisos"],
    ["an https link elsewhere", "https://www.gov.br/noticias", "https://www.gov.br/noticias"],
    ["no link: the site's home", undefined, "https://sino.example.com.br/"],
    ["an empty link: the site's home", "", "https://sino.example.com.br/"],
  ])("accepts %s", (_name, link, expected) => {
    expect(resolveNotificationLink(link, origin)).toBe(expected);
  });

  it.each([
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["plain http elsewhere", "http://evil.example/phish"],
    ["a protocol-relative http downgrade from an http origin", "//evil.example/x"],
    ["https with credentials", "https://user:pass@evil.example/"],
    ["file:", "file:///etc/passwd"],
    ["a non-string", 42],
  ])("refuses %s", (_name, link) => {
    expect(resolveNotificationLink(link, "http://localhost:8080")).toBeNull();
  });

  it("accepts same-origin http on a local development origin", () => {
    expect(resolveNotificationLink("/avisos", "http://localhost:8080")).toBe("http://localhost:8080/avisos");
  });
});
