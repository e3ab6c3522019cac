import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Translator } from "./i18n.js";
import { errorBody } from "./errors.js";

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

  await app.register(async (embed) => {
    // On every answer of this context, after any app-wide security headers (a same-origin
    // Cross-Origin-Resource-Policy would stop other sites from loading the scripts).
    embed.addHook("onSend", async (_request, reply, payload) => {
      crossOrigin(reply);
      return payload;
    });

    embed.withTypeProvider<ZodTypeProvider>().get(`${EMBED_PREFIX}sw.js`, { schema: { hide: true, querystring: workerQuerySchema } }, (request, reply) => {
      const site = request.query.site ?? null;
      if (site !== null && !SITE_KEY.test(site)) {
        return reply.code(400).send(errorBody(deps.translator, "validation_failed", "site"));
      }
      const config = JSON.stringify({ sinoUrl: publicBase, site });
      // A function scope, not a global: importScripts runs in the site's worker, next to its own code.
      const body = `(function (SINO_EMBED_CONFIG) {\n${workerCode}\n})(${config});\n`;
      return reply.header("Cache-Control", "no-cache").type("text/javascript; charset=utf-8").send(body);
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
