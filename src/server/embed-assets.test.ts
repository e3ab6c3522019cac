import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltWebApp } from "../../test/e2e/support/built-web-app.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";

/** What a site's page or worker sees when it loads Sino's embed from another origin. */
describe("GET /embed/*", () => {
  let server: TestServer;
  beforeAll(async () => {
    requireBuiltWebApp();
    server = await startTestServer({ env: { SINO_PUBLIC_URL: "https://sino.exemplo.com.br" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  function expectCrossOrigin(response: Response): void {
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  }

  it("serves sino.js as JavaScript that any origin may load, cached for an hour and revalidated", async () => {
    const response = await fetch(`${server.url}/embed/sino.js`, { headers: { origin: "https://www.exemplo.com.br", "accept-encoding": "identity" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^(text|application)\/javascript/);
    expectCrossOrigin(response);
    expect(response.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(response.headers.get("etag")).toBeTruthy();
    expect(response.headers.get("vary")).toMatch(/Accept-Encoding/i);
    expect(await response.text()).toBe(readFileSync(resolve("dist/web/embed/sino.js"), "utf8"));
  });

  it("sends the gzip copy to a browser that accepts it, the same script once decompressed", async () => {
    const response = await fetch(`${server.url}/embed/sino.js`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    // fetch (undici) decompresses transparently; the header says what travelled.
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(await response.text()).toBe(gunzipSync(readFileSync(resolve("dist/web/embed/sino.js.gz"))).toString("utf8"));
  });

  it("wraps sw.js with Sino's public URL and the site key, in a function scope", async () => {
    const response = await fetch(`${server.url}/embed/sw.js?site=Ab3_-x9KqZ01`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    expectCrossOrigin(response);
    const body = await response.text();
    expect(body.startsWith("(function (SINO_EMBED_CONFIG) {\n")).toBe(true);
    expect(body.trimEnd().endsWith(`})(${JSON.stringify({ sinoUrl: "https://sino.exemplo.com.br", site: "Ab3_-x9KqZ01" })});`)).toBe(true);
    expect(body).toContain(readFileSync(resolve("dist/web/embed/sw.js"), "utf8"));
  });

  it("names no site when the worker line carries none (Sino's own origin)", async () => {
    const body = await (await fetch(`${server.url}/embed/sw.js`)).text();
    expect(body).toContain(`})(${JSON.stringify({ sinoUrl: "https://sino.exemplo.com.br", site: null })});`);
  });

  it.each([["a quote", 'x");alert(1);//'], ["a space", "a b"], ["too long", "k".repeat(65)]])(
    "refuses a site key with %s (400, pt-BR), never writing it into a script",
    async (_name, key) => {
      const response = await fetch(`${server.url}/embed/sw.js?site=${encodeURIComponent(key)}`);
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string; field?: string } };
      expect(body.error).toMatchObject({ code: "validation_failed", field: "site" });
      expect(body.error.message).toMatch(/[a-zà-ú]/i);
    },
  );

  it("answers 404 for a file the embed does not have", async () => {
    const response = await fetch(`${server.url}/embed/nope.js`);
    expect(response.status).toBe(404);
  });
});
