import { describe, expect, it } from "vitest";
import { siteSnippet } from "./snippet.js";

describe("the snippet a site owner pastes", () => {
  it("fills in Sino's address (without a trailing slash) and the site's key", () => {
    const snippet = siteSnippet("https://sino.exemplo.com.br/", "Ab3_x-9ZqW2k");
    expect(snippet.script).toBe('<script src="https://sino.exemplo.com.br/embed/sino.js" data-site="Ab3_x-9ZqW2k" async></script>');
    expect(snippet.element).toBe("<sino-bell></sino-bell>");
    expect(snippet.serviceWorker).toBe("importScripts('https://sino.exemplo.com.br/embed/sw.js?site=Ab3_x-9ZqW2k');");
    expect(snippet.serviceWorkerPath).toBe("/sino-sw.js");
  });

  it("keeps a path prefix of SINO_PUBLIC_URL and escapes a key that would break out of the attribute", () => {
    const snippet = siteSnippet("https://exemplo.com.br/sino", 'a"b');
    expect(snippet.script).toBe('<script src="https://exemplo.com.br/sino/embed/sino.js" data-site="a%22b" async></script>');
  });
});
