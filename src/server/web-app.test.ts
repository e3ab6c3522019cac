import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOperatorServer, type OperatorServer } from "../../test/support/operators.js";

/** A built web app in miniature, with the .br/.gz siblings the build writes (vite.config.ts). */
function makeWebDir(): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), "sino-web-"));
  mkdirSync(join(dir, "assets"));
  const script = `console.log(${JSON.stringify("Sino ".repeat(500))});`;
  writeFileSync(join(dir, "index.html"), '<!doctype html><html lang="pt-BR"><body><div id="root"></div></body></html>');
  for (const [name, content] of [["assets/app-abc123.js", script], ["sw.js", script]] as const) {
    writeFileSync(join(dir, name), content);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(content));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(content));
  }
  return { dir, script };
}

describe("the web app's precompressed files", () => {
  let server: OperatorServer;
  let web: { dir: string; script: string };

  beforeAll(async () => {
    web = makeWebDir();
    server = await startOperatorServer({ dialect: "sqlite", env: { SINO_WEB_DIR: web.dir } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(web.dir, { recursive: true, force: true });
  });

  /** Raw bytes: undici's fetch would decompress and hide what was sent. */
  async function get(path: string, acceptEncoding: string) {
    const { request } = await import("undici");
    const res = await request(server.url + path, { headers: { "accept-encoding": acceptEncoding } });
    return { status: res.statusCode, headers: res.headers, body: Buffer.from(await res.body.arrayBuffer()) };
  }

  it("sends the brotli file to a browser that accepts br, with the original's type and Vary: Accept-Encoding", async () => {
    const res = await get("/assets/app-abc123.js", "gzip, deflate, br");
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["content-type"]).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers.vary).toContain("Accept-Encoding");
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(res.body).toString()).toBe(web.script);
  });

  it("sends the gzip file to a browser that accepts only gzip, and the plain file to one that accepts neither", async () => {
    const gz = await get("/assets/app-abc123.js", "gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gz.headers.vary).toContain("Accept-Encoding");
    expect(gunzipSync(gz.body).toString()).toBe(web.script);

    const plain = await get("/assets/app-abc123.js", "identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toContain("Accept-Encoding");
    expect(plain.body.toString()).toBe(web.script);
  });

  it("keeps the service worker's own headers when it is sent compressed", async () => {
    const res = await get("/sw.js", "br");
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-cache");
    expect(res.headers["service-worker-allowed"]).toBe("/");
  });

  it("answers /avisos (a page of the app, not a file) with index.html", async () => {
    const res = await get("/avisos", "br, gzip");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/html");
    expect(res.body.toString()).toContain('<div id="root">');
  });
});
