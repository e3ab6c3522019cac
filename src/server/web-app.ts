import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

/** Vite puts content-hashed files here: a new build gives new names, so they can be cached forever. */
const HASHED_ASSETS = /[\\/]assets[\\/]/;
/** The precompressed siblings the build writes beside a file (.br and .gz); headers go by the original. */
const COMPRESSED_SUFFIX = /\.(?:br|gz)$/;

/**
 * Serves the built web app from `webDir` when it exists (an API-only deployment may not build it).
 * Returns whether it did, so the not-found handler knows whether to fall back to index.html.
 */
export async function registerWebApp(app: FastifyInstance, webDir: string): Promise<boolean> {
  if (!existsSync(join(webDir, "index.html"))) {
    app.log.warn({ webDir }, "web app not built: serving the API only (run npm run build:web)");
    return false;
  }
  const serviceWorkerPath = join(webDir, "sw.js");
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: "/",
    index: ["index.html"],
    // We set Cache-Control ourselves, per kind of file (see setHeaders).
    cacheControl: false,
    // The build writes .br and .gz beside each text file (vite.config.ts): sent as they are to a
    // browser that accepts them, at compression levels too slow to use per request.
    preCompressed: true,
    setHeaders(res, sentPath) {
      const path = sentPath.replace(COMPRESSED_SUFFIX, "");
      // The answer depends on Accept-Encoding: caches must keep one copy per encoding.
      res.setHeader("Vary", "Accept-Encoding");
      if (path === serviceWorkerPath) {
        // The browser checks for a new worker on navigation but may use the HTTP cache for it;
        // no-cache makes every update check reach the server. Service-Worker-Allowed lets the
        // worker control the whole origin (Service Workers §4.2, max scope).
        res.setHeader("Cache-Control", "no-cache");
        res.setHeader("Service-Worker-Allowed", "/");
      } else if (HASHED_ASSETS.test(path)) {
        res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      } else {
        res.setHeader("Cache-Control", "no-cache");
      }
    },
  });
  return true;
}

/** The single-page app's routes (/avisos, /painel/…) are not files: answer them with index.html. */
export function sendIndexHtml(reply: FastifyReply): FastifyReply {
  return reply.header("Cache-Control", "no-cache").type("text/html; charset=utf-8").sendFile("index.html");
}
