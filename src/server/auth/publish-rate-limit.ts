import fastifyRateLimit from "@fastify/rate-limit";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { apiError } from "../errors.js";

/**
 * Registers @fastify/rate-limit without any global limit: only routes that add a hook made by
 * `createPublishRateLimit` are limited. Call once, before the routes.
 */
export async function registerRateLimiting(app: FastifyInstance): Promise<void> {
  await app.register(fastifyRateLimit, { global: false });
}

/**
 * A hook (`onRequest`, after the authenticating one) limiting publishing to `maxPerMinute` requests per API token (per user for
 * a signed-in operator). Put it AFTER the authentication hook in the route's chain: it keys on
 * `request.principal`, so a leaked token cannot be used to exhaust another token's budget, and a
 * request without a principal is counted per client address. Answers 429 `rate_limited` with
 * Retry-After. The counters live in this process's memory: with N API processes a token may send
 * up to N × the limit (a limit, not an accounting system).
 */
export function createPublishRateLimit(
  app: FastifyInstance,
  maxPerMinute: number,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // Separate counters from any other limit registered with the same plugin instance.
  return perMinuteLimit(app, maxPerMinute, "rate_limited", (request) => {
    const principal = request.principal;
    if (principal?.kind === "token") return `publish:token:${principal.token.id}`;
    if (principal?.kind === "session") return `publish:user:${principal.user.id}`;
    return `publish:ip:${request.ip}`;
  });
}

/**
 * Registrations from registered sites (the embedded bell), `maxPerMinute` per client address
 * (SINO_SITE_SUBSCRIBE_RATE_LIMIT; behind a proxy, SINO_TRUST_PROXY decides what the address
 * is): a script on someone's page cannot pour fake subscriptions into the fan-out. Answers 429
 * `site_rate_limited` with Retry-After. In this process's memory, like the publish limit.
 */
export function createSiteSubscribeRateLimit(
  app: FastifyInstance,
  maxPerMinute: number,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return perMinuteLimit(app, maxPerMinute, "site_rate_limited", (request) => `site-subscribe:ip:${request.ip}`);
}

/** A route hook: `maxPerMinute` requests per key, then 429 with `code` and Retry-After. */
function perMinuteLimit(
  app: FastifyInstance,
  maxPerMinute: number,
  code: "rate_limited" | "site_rate_limited",
  keyGenerator: (request: FastifyRequest) => string,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return app.rateLimit({
    max: maxPerMinute,
    timeWindow: 60_000,
    keyGenerator,
    errorResponseBuilder: () => apiError(code),
  }) as (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}
