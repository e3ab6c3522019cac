import type { FastifyInstance, RouteOptions } from "fastify";
import { API_PREFIX } from "../../shared/api/routes.js";

/** The order methods are listed in an Allow header (RFC 9110 §10.2.1 sets none; this reads well). */
const METHOD_ORDER = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

export interface ApiMethods {
  /** The Allow header for an API path some route answers (`"GET, HEAD, POST"`), or undefined. */
  allowed(path: string): string | undefined;
}

/**
 * The methods each fixed API path answers, read from the routes as they are registered (Fastify's
 * onRoute hook, HEAD routes included), so a 405's Allow header never drifts from the routes. Call
 * it before the routes are registered. Paths with parameters are left out: a wrong method there
 * stays a 404, as before.
 */
export function collectApiMethods(app: FastifyInstance): ApiMethods {
  const methods = new Map<string, Set<string>>();
  app.addHook("onRoute", (route: RouteOptions) => {
    if (!isFixedApiPath(route.url)) return;
    const known = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) known.add(method.toUpperCase());
    methods.set(route.url, known);
  });
  return {
    allowed(path) {
      const known = methods.get(path);
      if (known === undefined) return undefined;
      return [...known].sort((a, b) => rank(a) - rank(b)).join(", ");
    },
  };
}

function isFixedApiPath(url: string): boolean {
  return url.startsWith(`${API_PREFIX}/`) && !url.includes(":") && !url.includes("*");
}

function rank(method: string): number {
  const index = METHOD_ORDER.indexOf(method);
  return index === -1 ? METHOD_ORDER.length : index;
}
