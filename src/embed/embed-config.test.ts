import { describe, expect, it } from "vitest";
import { readEmbedConfig } from "./embed-config.js";

function script(src: string, data: Record<string, string> = {}) {
  return { src, getAttribute: (name: string) => (name.startsWith("data-") ? (data[name.slice(5)] ?? null) : null) };
}

const PAGE = "https://www.exemplo.com.br/noticias/1";

describe("readEmbedConfig", () => {
  it("takes Sino's URL from where the script came from, and defaults everything else", () => {
    expect(readEmbedConfig(script("https://sino.exemplo.com.br/embed/sino.js", { site: "k3y" }), PAGE)).toEqual({
      sinoUrl: "https://sino.exemplo.com.br",
      site: "k3y",
      position: "bottom-right",
      serviceWorkerUrl: "/sino-sw.js",
      serviceWorkerScope: "/",
      softPrompt: null,
      user: null,
    });
  });

  it("reads the signed-in person from data-user and data-user-signature, untrimmed", () => {
    const read = (data: Record<string, string>) => readEmbedConfig(script("https://sino.example/embed/sino.js", data), PAGE).user;
    expect(read({ user: "ana-4821", "user-signature": "ab12" })).toEqual({ id: "ana-4821", signature: "ab12" });
    expect(read({ user: "ana-4821" })).toEqual({ id: "ana-4821" });
    expect(read({ user: " ana " })).toEqual({ id: " ana " });
    expect(read({ user: "" })).toBeNull();
    expect(read({ "user-signature": "ab12" })).toBeNull();
  });

  it("keeps a path prefix Sino is served under", () => {
    expect(readEmbedConfig(script("https://exemplo.com.br/sino/embed/sino.js?v=2"), PAGE).sinoUrl).toBe("https://exemplo.com.br/sino");
  });

  it("reads the position, the worker and the soft prompt's settings", () => {
    const config = readEmbedConfig(
      script("https://sino.example/embed/sino.js", {
        position: "top-left",
        "service-worker": "/sw.js",
        scope: "/app/",
        "soft-prompt": "",
        "prompt-visits": "3",
        "prompt-delay": "12.5",
        "prompt-backoff-days": "30",
      }),
      PAGE,
    );
    expect(config).toMatchObject({
      position: "top-left",
      serviceWorkerUrl: "/sw.js",
      serviceWorkerScope: "/app/",
      softPrompt: { visits: 3, delaySeconds: 12.5, backoffDays: 30 },
    });
  });

  it.each([
    ["an unknown position falls back to bottom-right", { position: "middle" }, { position: "bottom-right" }],
    ["position none means no floating bell", { position: "none" }, { position: null }],
    ["an empty site key is no site key", { site: "  " }, { site: null }],
    ["soft prompt off", { "soft-prompt": "false" }, { softPrompt: null }],
    ["bad numbers fall back to the defaults", { "soft-prompt": "on", "prompt-visits": "0", "prompt-delay": "-1", "prompt-backoff-days": "x" }, { softPrompt: { visits: 1, delaySeconds: 0, backoffDays: 7 } }],
  ])("%s", (_name, data, expected) => {
    expect(readEmbedConfig(script("https://sino.example/embed/sino.js", data), PAGE)).toMatchObject(expected);
  });

  it("honours data-sino-url, and falls back to the page's origin without a script", () => {
    expect(readEmbedConfig(script("https://cdn.example/sino.js", { "sino-url": "https://sino.example/" }), PAGE).sinoUrl).toBe("https://sino.example");
    expect(readEmbedConfig(null, PAGE).sinoUrl).toBe("https://www.exemplo.com.br");
  });
});
