import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** One site's wrapped worker script, as it travels: the plain bytes, its copies and its validator. */
export interface WorkerScriptVariant {
  readonly identity: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
  /** A strong ETag of the plain bytes (every encoding is the same representation's bytes). */
  readonly etag: string;
}

export interface WorkerScripts {
  /** The wrapped script for `site` (null: Sino's own origin), made and compressed once. */
  variant(site: string | null): Promise<WorkerScriptVariant>;
}

/**
 * How many sites' scripts are kept. Each is ~3 KB compressed; the key in `?site=` is only checked
 * for its shape, so a bound keeps a stream of made-up keys from growing the map without limit.
 */
const MAX_VARIANTS = 256;

/**
 * The embed's worker (`/embed/sw.js?site=KEY`) is the build's `sw.js` wrapped with Sino's public
 * URL and the site key, so its bytes differ per site and the build's `.br`/`.gz` copies (of the
 * unwrapped file) cannot be sent as they are. Each site's variant is compressed once, at the
 * build's levels (brotli 11, gzip 9), off the event loop, and reused while the server runs.
 */
export function createWorkerScripts(workerCode: string, publicBase: string): WorkerScripts {
  const variants = new Map<string, Promise<WorkerScriptVariant>>();

  async function make(site: string | null): Promise<WorkerScriptVariant> {
    const config = JSON.stringify({ sinoUrl: publicBase, site });
    // A function scope, not a global: importScripts runs in the site's worker, next to its own code.
    const identity = Buffer.from(`(function (SINO_EMBED_CONFIG) {\n${workerCode}\n})(${config});\n`, "utf8");
    const [br, gz] = await Promise.all([
      brotli(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
      gzipAsync(identity, { level: 9 }),
    ]);
    const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
    return { identity, br, gzip: gz, etag };
  }

  return {
    variant(site) {
      const key = site ?? "";
      let found = variants.get(key);
      if (found === undefined) {
        found = make(site);
        if (variants.size >= MAX_VARIANTS) variants.delete(variants.keys().next().value!);
        variants.set(key, found);
      } else {
        // Most recently used last, so the oldest unused one goes first.
        variants.delete(key);
        variants.set(key, found);
      }
      return found;
    },
  };
}

/** The encoding to send for an `Accept-Encoding` header: brotli, then gzip, else none (q=0 honoured). */
export function pickEncoding(acceptEncoding: string | undefined): "br" | "gzip" | "identity" {
  if (!acceptEncoding) return "identity";
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    accepted.set(name, q === undefined ? 1 : Number(q.slice(2)) || 0);
  }
  const wants = (name: string) => (accepted.get(name) ?? accepted.get("*") ?? 0) > 0;
  if (wants("br")) return "br";
  if (wants("gzip")) return "gzip";
  return "identity";
}

/**
 * Whether a conditional GET may be answered 304 (RFC 9110 §13.1.2, §13.1.3): If-None-Match
 * (weak comparison) wins over If-Modified-Since, which is compared at one-second precision.
 */
export function notModified(headers: { "if-none-match"?: string | undefined; "if-modified-since"?: string | undefined }, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = headers["if-none-match"];
  if (ifNoneMatch !== undefined) {
    const opaque = etag.replace(/^W\//, "");
    return ifNoneMatch.split(",").some((tag) => {
      const candidate = tag.trim();
      return candidate === "*" || candidate.replace(/^W\//, "") === opaque;
    });
  }
  const since = headers["if-modified-since"];
  if (since === undefined) return false;
  const time = Date.parse(since);
  return Number.isFinite(time) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(time / 1000);
}
