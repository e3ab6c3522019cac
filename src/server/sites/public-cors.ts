import fastifyCors from "@fastify/cors";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { API_ROUTES } from "../../shared/api/routes.js";
import { ENGAGEMENT_ROUTES } from "../../shared/api/engagement.js";
import { apiError } from "../errors.js";
import type { KnownSite, SiteRegistry } from "./site-registry.js";

/**
 * The subscriber API a registered site's page calls from its own origin (the embedded bell and
 * its service worker): configuration, subscriptions, the channel choice, the person, events,
 * Avisos and their stream. Nothing else answers CORS: the Painel's and the operators' API stay same-origin.
 */
export const PUBLIC_API_PATHS: ReadonlySet<string> = new Set([
  API_ROUTES.config,
  API_ROUTES.subscriptions,
  API_ROUTES.subscriptionChannels,
  API_ROUTES.subscriptionUser,
  API_ROUTES.subscriptionTags,
  API_ROUTES.subscriptionData,
  API_ROUTES.events,
  API_ROUTES.notices,
  API_ROUTES.noticesStream,
  API_ROUTES.privacy,
  ENGAGEMENT_ROUTES.quietHours,
  ENGAGEMENT_ROUTES.quietHoursLookup,
]);

/** Where a public API request says it comes from. */
export type RequestSite =
  /** No Origin: a script, a same-origin GET, or a service worker's fetch that sends none. */
  | { readonly kind: "none" }
  /** Sino's own pages (SINO_PUBLIC_URL's origin or the Host the request was sent to). */
  | { readonly kind: "own" }
  /** A registered site's page. */
  | { readonly kind: "site"; readonly site: KnownSite };

declare module "fastify" {
  interface FastifyRequest {
    /** Set on the public API's requests by the CORS check (`registerPublicCors`). */
    requestSite: RequestSite | null;
    /** The Origin `registerPublicCors` refused (403 `origin_not_allowed`), or null. */
    refusedOrigin: string | null;
  }
}

export function pathOf(request: FastifyRequest): string {
  return request.url.split("?", 1)[0] ?? "/";
}

/**
 * Classifies the Origin of a public API request; throws `origin_not_allowed` (403) for one that
 * is neither Sino's own nor a registered site's (an opaque `null` origin included).
 */
export async function classifyOrigin(request: FastifyRequest, registry: SiteRegistry, publicOrigin: string): Promise<RequestSite> {
  const origin = request.headers.origin;
  if (origin === undefined) return { kind: "none" };
  const site = await registry.byOrigin(origin);
  if (site !== undefined) return site.builtIn ? { kind: "own" } : { kind: "site", site };
  if (origin === publicOrigin || hostOf(origin) === request.headers.host) return { kind: "own" };
  throw apiError("origin_not_allowed");
}

function hostOf(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

/** How long a browser may reuse a preflight answer (Chromium caps it at 2 hours). */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * @fastify/cors over the public API only, its origin decided per request from the sites
 * registry: a registered site's origin is reflected (with `Vary: Origin`), preflights included;
 * Sino's own origin needs no grant; any other Origin is refused with 403 `origin_not_allowed`
 * before the route runs, so nothing is stored. No credentials: the public API never reads cookies.
 */
export async function registerPublicCors(app: FastifyInstance, registry: SiteRegistry, publicOrigin: string): Promise<void> {
  app.decorateRequest("requestSite", null);
  app.decorateRequest("refusedOrigin", null);
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.refusedOrigin !== null && isRefusalReadableBy(request)) {
      reply.header("Access-Control-Allow-Origin", request.refusedOrigin).header("Vary", "Origin");
    }
    return payload;
  });
  await app.register(fastifyCors, {
    hook: "onRequest",
    delegator: async (request: FastifyRequest) => {
      if (!PUBLIC_API_PATHS.has(pathOf(request))) return { origin: false };
      let requestSite: RequestSite;
      try {
        requestSite = await classifyOrigin(request, registry, publicOrigin);
      } catch (error) {
        request.refusedOrigin = request.headers.origin ?? null;
        throw error;
      }
      request.requestSite = requestSite;
      if (requestSite.kind !== "site") return { origin: false };
      return {
        origin: requestSite.site.origin,
        methods: ["GET", "HEAD", "POST", "PUT", "DELETE"],
        allowedHeaders: ["Content-Type"],
        credentials: false,
        maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      };
    },
  });
}

/**
 * The one refusal an unregistered page may read: the embed's first call, a simple GET of the
 * public configuration (no preflight), so the bell can tell the site's developer in the console
 * that the origin is not registered (Painel → Sites) instead of a bare CORS error. The answer is
 * the 403 and its pt-BR reason only; preflights and every other route stay closed to that origin.
 */
function isRefusalReadableBy(request: FastifyRequest): boolean {
  return request.method === "GET" && pathOf(request) === API_ROUTES.config && request.refusedOrigin !== "null";
}
