import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import helmet, { type HelmetOptions } from "helmet";
import { API_ROUTES } from "../shared/api/routes.js";
import { PUBLIC_API_PATHS } from "./sites/public-cors.js";

/**
 * Paths that other sites' pages load or call (the embed script and the public subscriber API,
 * the same paths that answer CORS): they must be readable cross-origin, so they answer
 * `Cross-Origin-Resource-Policy: cross-origin` instead of helmet's `same-origin`, which would make
 * the browser drop them.
 */
export const CROSS_ORIGIN_PATHS: readonly string[] = [
  ...PUBLIC_API_PATHS,
  // The embed's panel shows the organisation's logo on other sites' pages (an <img>, no CORS needed).
  API_ROUTES.organisationLogo,
];

/** Everything under these prefixes is cross-origin too (`/embed/sino.js`, `/embed/sw.js`, chunks). */
export const CROSS_ORIGIN_PREFIXES: readonly string[] = ["/embed/"];

export function isCrossOriginPath(url: string): boolean {
  return CROSS_ORIGIN_PATHS.includes(url) || CROSS_ORIGIN_PREFIXES.some((prefix) => url.startsWith(prefix) || `${url}/` === prefix);
}

/**
 * The Content-Security-Policy of every response (HTML and API alike: an API answer opened as a
 * page must not run anything either). Checked with a real Chromium on every page of the web app
 * and the API docs, with no violation reported:
 * - `style-src 'unsafe-inline'`: MUI styles through emotion, which inserts `<style>` elements at
 *   run time; a nonce would need the HTML rendered per request, and index.html is a static file.
 *   Inline styles cannot run script, so `script-src` stays `'self'` only.
 * - `img-src https:`: notices and the compose preview show icons and images hosted anywhere.
 * - `data:` images: MUI and the API docs draw small icons as data URLs.
 */
export function contentSecurityDirectives(https: boolean): Record<string, string[] | null> {
  return {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "script-src-attr": ["'none'"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "https:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    // Over plain http (a local test) there is nothing to upgrade to.
    ...(https ? { "upgrade-insecure-requests": [] } : {}),
  };
}

declare module "fastify" {
  interface FastifyContextConfig {
    /** Marked by `registerSecurityHeaders` on the paths of `isCrossOriginPath`. */
    crossOriginResource?: boolean;
  }
}

/** One header helmet sets (a value) or removes (undefined), in helmet's order. */
type HeaderStep = readonly [name: string, value: string | number | readonly string[] | undefined];

/**
 * Security headers from helmet on every response, including 404s, static files and the event
 * streams (set on the raw response in an onRequest hook, before any route, hijacked or not,
 * writes its head).
 *
 * Not @fastify/helmet: it builds helmet's middleware anew on every request of a route with its own
 * options (here every public API call, CORP `cross-origin`), parsing the CSP directives each time
 * (about a tenth of a registration's CPU). The headers depend only on the options, so helmet runs
 * once per set of options at start-up and each request gets the headers it recorded.
 */
export function registerSecurityHeaders(app: FastifyInstance, options: { readonly publicUrl: string }): void {
  const https = new URL(options.publicUrl).protocol === "https:";
  const common: HelmetOptions = {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityDirectives(https) },
    // Not "no-referrer": a same-origin POST made under it carries `Origin: null` (Fetch §3.1,
    // "append a request Origin header"), and the CSRF guard would refuse the Painel's own calls.
    referrerPolicy: { policy: "same-origin" },
    xFrameOptions: { action: "deny" },
    // Only when served over https: over http the header is ignored, and a local test server
    // must not pin itself (RFC 6797 §7.2).
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
  };
  const sameOrigin = recordHeaders(common);
  const crossOrigin = recordHeaders({ ...common, crossOriginResourcePolicy: { policy: "cross-origin" } });
  // Must come before the routes are added: it marks the cross-origin ones as they are.
  app.addHook("onRoute", (route) => {
    if (isCrossOriginPath(route.url)) route.config = { ...route.config, crossOriginResource: true };
  });
  app.addHook("onRequest", (request, reply, done) => {
    const raw = reply.raw;
    for (const [name, value] of request.routeOptions.config.crossOriginResource === true ? crossOrigin : sameOrigin) {
      if (value === undefined) raw.removeHeader(name);
      else raw.setHeader(name, value);
    }
    done();
  });
}

/** The headers helmet's middleware sets with these options (it reads nothing of the request). */
function recordHeaders(options: HelmetOptions): readonly HeaderStep[] {
  const steps: HeaderStep[] = [];
  const response = {
    setHeader: (name: string, value: string | number | readonly string[]) => void steps.push([name, value]),
    removeHeader: (name: string) => void steps.push([name, undefined]),
  };
  let finished = false;
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error !== undefined && error !== null) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  if (!finished) throw new Error("helmet did not set its headers synchronously");
  return steps;
}
