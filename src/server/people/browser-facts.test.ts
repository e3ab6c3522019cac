import { describe, expect, it } from "vitest";
import { browserFacts, validTimeZone } from "./browser-facts.js";

describe("browser facts", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0", "firefox", "windows"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "chrome", "linux"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15", "safari", "macos"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0", "edge", "windows"],
    [
      "Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
      "samsung",
      "android",
    ],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1", "safari", "ios"],
    ["Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36", "chrome", "chromeos"],
  ])("%s", (ua, browser, platform) => {
    expect(browserFacts(ua)).toEqual({ browser, platform });
  });

  it("knows nothing of a missing User-Agent", () => {
    expect(browserFacts(null)).toEqual({ browser: null, platform: null });
  });

  it("keeps IANA zones Intl knows and drops the rest", () => {
    expect(validTimeZone("America/Sao_Paulo")).toBe("America/Sao_Paulo");
    expect(validTimeZone("UTC")).toBe("UTC");
    expect(validTimeZone("Marte/Olympus")).toBeNull();
    expect(validTimeZone("")).toBeNull();
    expect(validTimeZone(undefined)).toBeNull();
  });
});
