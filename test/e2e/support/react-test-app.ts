/**
 * The React package's test app (packages/react/test-app): built here, from the package's own
 * build, and served from its own origin by a plain static server, as a team's site would be.
 */
import { fileURLToPath } from "node:url";
import Fastify from "fastify";
import fastifyStatic from "@fastify/static";
import { build } from "vite";

const packageRoot = fileURLToPath(new URL("../../../packages/react/", import.meta.url));

/** Builds the package (library mode), then the test app on it; returns the test app's folder. */
export async function buildReactTestApp(): Promise<string> {
  await build({ configFile: `${packageRoot}vite.config.ts`, logLevel: "warn" });
  await build({ configFile: `${packageRoot}test-app/vite.config.ts`, logLevel: "warn" });
  return `${packageRoot}test-app/dist`;
}

export interface StaticSite {
  /** `http://localhost:<port>`: a secure context, and another origin than the Sino test server. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `dir` on 127.0.0.1 and a free port, no-cache, index.html for `/`; `scripts` adds
 * JavaScript files made at run time (e.g. `/sino-sw.js`, which names this run's Sino address and
 * site key, known only once the site's port is).
 */
export async function serveStaticSite(dir: string, scripts: Record<string, () => string> = {}): Promise<StaticSite> {
  const app = Fastify({ logger: false });
  for (const [path, source] of Object.entries(scripts)) {
    app.get(path, (_request, reply) =>
      reply.header("Cache-Control", "no-cache").type("text/javascript; charset=utf-8").send(source()),
    );
  }
  await app.register(fastifyStatic, {
    root: dir,
    cacheControl: false,
    setHeaders(res) {
      res.setHeader("Cache-Control", "no-cache");
    },
  });
  const address = await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    url: `http://localhost:${new URL(address).port}`,
    close: () => app.close(),
  };
}

/**
 * The test app as a site owner would deploy it: the build served on its own origin, with the
 * one-line `/sino-sw.js` at its root importing Sino's worker (the provider's default
 * `serviceWorkerUrl`). `siteKey` is read per request: it is known only once the app's origin is
 * registered, which needs the app's port.
 */
export function serveReactTestApp(dir: string, sino: { url: string; siteKey: () => string }): Promise<StaticSite> {
  return serveStaticSite(dir, {
    "/sino-sw.js": () => `importScripts(${JSON.stringify(`${sino.url}/embed/sw.js?site=${encodeURIComponent(sino.siteKey())}`)});\n`,
  });
}

/**
 * The test app's page for one run: Sino's address and the site key travel in the query string,
 * with `extra` settings of the test app (e.g. `prompt=1&promptVisits=2`, see its main.tsx).
 */
export function reactTestAppPage(appOrigin: string, sinoUrl: string, siteKey: string, extra: Record<string, string> = {}): string {
  return `${appOrigin}/?${new URLSearchParams({ sino: sinoUrl, site: siteKey, ...extra })}`;
}
