import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Translator } from "./i18n.js";
import { errorBody } from "./errors.js";
import { createWorkerScripts, notModified, pickEncoding } from "./embed-worker-script.js";

/** Where the embed lives, under the public URL (issue 9). */
export const EMBED_PREFIX = "/embed/";

/** A site key as the Painel makes them (URL-safe); anything else never reaches the worker script. */
const SITE_KEY = /^[A-Za-z0-9_-]{1,64}$/;

const workerQuerySchema = z.object({ site: z.string().optional() });

export interface EmbedAssetsDeps {
  /** The built web app (dist/web); the embed is in its `embed/` folder. */
  readonly webDir: string;
  /** SINO_PUBLIC_URL: baked into the worker script, the address a site's worker calls back. */
  readonly publicUrl: string;
  readonly translator: Translator;
}

/**
 * Serves `/embed/*` to other sites: `sino.js` (the script-tag bundle) and any other built file as
 * is (brotli/gzip copies to browsers that accept them), and `sw.js` wrapped with Sino's URL and the
 * `?site=` key so a site's one-line worker needs no other configuration. Every answer may be
 * loaded from any origin (`Access-Control-Allow-Origin: *`, `Cross-Origin-Resource-Policy:
 * cross-origin`): they are public scripts, sent without cookies. Returns whether the embed is built.
 */
export async function registerEmbedAssets(app: FastifyInstance, deps: EmbedAssetsDeps): Promise<boolean> {
  const embedDir = join(deps.webDir, "embed");
  const workerPath = join(embedDir, "sw.js");
  if (!existsSync(workerPath)) {
    app.log.warn({ embedDir }, "embed not built: /embed/* is not served (run npm run build:web)");
    return false;
  }
  // Read once: the build does not change under a running server, and each answer is a string join.
  const workerCode = readFileSync(workerPath, "utf8");
  const publicBase = deps.publicUrl.replace(/\/+$/, "");
  const scripts = createWorkerScripts(workerCode, publicBase);
  // The wrapped script changes with the build or with SINO_PUBLIC_URL, so with a restart at most:
  // the start is when it last changed. (The ETag, from the bytes, is the validator browsers prefer.)
  const lastModified = new Date(Math.floor(Date.now() / 1000) * 1000);

  await app.register(async (embed) => {
    // On every answer of this context, after any app-wide security headers (a same-origin
    // Cross-Origin-Resource-Policy would stop other sites from loading the scripts).
    embed.addHook("onSend", async (_request, reply, payload) => {
      crossOrigin(reply);
      return payload;
    });

    embed.withTypeProvider<ZodTypeProvider>().get(`${EMBED_PREFIX}sw.js`, { schema: { hide: true, querystring: workerQuerySchema } }, async (request, reply) => {
      const site = request.query.site ?? null;
      if (site !== null && !SITE_KEY.test(site)) {
        return reply.code(400).send(errorBody(deps.translator, "validation_failed", "site"));
      }
      const variant = await scripts.variant(site);
      // no-cache: the browser's update check (on navigation, at most daily) always asks, and the
      // validators let an unchanged worker cost a 304 instead of the script.
      reply
        .header("Cache-Control", "no-cache")
        .header("Vary", "Accept-Encoding")
        .header("ETag", variant.etag)
        .header("Last-Modified", lastModified.toUTCString())
        .type("text/javascript; charset=utf-8");
      if (notModified(request.headers, variant.etag, lastModified)) return reply.code(304).send();
      const encoding = pickEncoding(request.headers["accept-encoding"]);
      if (encoding === "identity") return reply.send(variant.identity);
      return reply.header("Content-Encoding", encoding).send(encoding === "br" ? variant.br : variant.gzip);
    });

    await embed.register(fastifyStatic, {
      root: embedDir,
      prefix: EMBED_PREFIX,
      decorateReply: false,
      preCompressed: true,
      cacheControl: false,
      index: false,
      setHeaders(res) {
        res.setHeader("Vary", "Accept-Encoding");
        // A stable URL (it is in every site's HTML), so not immutable: an hour, then revalidated by ETag.
        res.setHeader("Cache-Control", "public, max-age=3600");
      },
    });
  });
  return true;
}

function crossOrigin(reply: FastifyReply): void {
  reply
    .header("Access-Control-Allow-Origin", "*")
    .header("Cross-Origin-Resource-Policy", "cross-origin")
    .header("X-Content-Type-Options", "nosniff");
}
