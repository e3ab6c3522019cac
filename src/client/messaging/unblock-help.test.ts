import { describe, expect, it } from "vitest";
import { unblockHelpKey } from "./unblock-help.js";

describe("unblockHelpKey", () => {
  it.each([
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36", 0, "bell.blocked.chrome"],
    ["Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/139.0.0.0 Safari/537.36", 0, "bell.blocked.chrome"],
    ["Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51", 0, "bell.blocked.edge"],
    ["Mozilla/5.0 (X11; Linux x86_64; rv:115.0) Gecko/20100101 Firefox/115.0", 0, "bell.blocked.firefox"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15", 0, "bell.blocked.safari"],
    ["Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15", 5, "bell.blocked.ios"],
    ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148", 5, "bell.blocked.ios"],
    ["Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36", 5, "bell.blocked.chrome"],
    ["Opera/9.80 (J2ME/MIDP; Opera Mini/9.80)", 0, "bell.blocked.other"],
  ])("%s (touch points %i) → %s", (userAgent, touchPoints, expected) => {
    expect(unblockHelpKey(userAgent, touchPoints)).toBe(expected);
  });
});
