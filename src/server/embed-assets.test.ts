import { readFileSync } from "node:fs";
import { get as httpGet, type IncomingHttpHeaders } from "node:http";
import { resolve } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireBuiltWebApp } from "../../test/e2e/support/built-web-app.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";

// One server for both suites: they only read what it serves.
let server: TestServer;
beforeAll(async () => {
  requireBuiltWebApp();
  server = await startTestServer({ env: { SINO_PUBLIC_URL: "https://sino.exemplo.com.br" } });
});
afterAll(async () => {
  await server?.close();
});

/** What a site's page or worker sees when it loads Sino's embed from another origin. */
describe("GET /embed/*", () => {

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

/** The embed's worker script: compressed like the rest of the build, and revalidated for free. */
describe("GET /embed/sw.js: compression and validators", () => {

  /** Node's http client, which (unlike fetch) shows the bytes as they travelled. */
  function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolvePromise, reject) => {
      const request = httpGet(`${server.url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolvePromise({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on("error", reject);
      });
      request.on("error", reject);
    });
  }

  it("sends brotli to a browser that accepts it, gzip otherwise, each decoding to the plain script", async () => {
    const plain = await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "accept-encoding": "identity" });
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.toString("utf8")).toContain(readFileSync(resolve("dist/web/embed/sw.js"), "utf8"));

    const br = await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    // At the build's level: about as small as the build's own copy of the unwrapped file.
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(br.body.length).toBeLessThanOrEqual(readFileSync(resolve("dist/web/embed/sw.js.br")).length + 200);

    const gz = await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "accept-encoding": "gzip;q=1, br;q=0" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });

  it("carries an ETag and Last-Modified, and answers 304 with no body when the browser has it", async () => {
    const first = await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "accept-encoding": "br" });
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(Date.parse(first.headers["last-modified"]!)).not.toBeNaN();
    expect(first.headers["cache-control"]).toBe("no-cache");

    const again = await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "accept-encoding": "br", "if-none-match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["access-control-allow-origin"]).toBe("*");
    // Same representation whatever the encoding: the validator holds for a gzip client too.
    expect((await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "accept-encoding": "gzip", "if-none-match": `W/${etag}` })).status).toBe(304);
    const byDate = await rawGet("/embed/sw.js?site=Ab3_-x9KqZ01", { "if-modified-since": first.headers["last-modified"]! });
    expect(byDate.status).toBe(304);

    // Another site's script is other bytes: another validator, and a stale one gets the script.
    const other = await rawGet("/embed/sw.js?site=OtherKey0001", { "if-none-match": etag });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
    expect(other.body.toString("utf8")).toContain('"site":"OtherKey0001"');
  });
});
