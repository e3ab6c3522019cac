import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { constantTimeEqual } from "../../store/constant-time.js";
import type { ListenAddress } from "../config.js";
import { errorBody } from "../errors.js";
import type { Translator } from "../i18n.js";
import type { Metrics } from "./metrics.js";

export const METRICS_PATH = "/metrics";

export interface MetricsEndpointDeps {
  readonly metrics: Metrics;
  /** SINO_METRICS_TOKEN: required as `Authorization: Bearer <token>` when set. */
  readonly token: string | undefined;
  readonly translator: Translator;
}

/**
 * GET /metrics on the main listener: served behind the token, or answered 404 when it is off
 * (no token) or moved to SINO_METRICS_LISTEN. Registered either way, so the web app's page
 * fallback never answers it with index.html. Outside /api/v1 and left out of the OpenAPI
 * document: it is Prometheus's text format for the operator's scraper, not the API, and its
 * credential is not an API token. Successful scrapes are not logged (one every 15 s).
 */
export function registerMetricsRoute(app: FastifyInstance, deps: MetricsEndpointDeps & { readonly served: boolean }): void {
  app.get(METRICS_PATH, { logLevel: "warn", schema: { operationId: "getMetrics", hide: true } }, (request, reply) =>
    deps.served ? answer(deps, request, reply) : reply.code(404).send(errorBody(deps.translator, "not_found")),
  );
}

export interface MetricsListener {
  /** `http://host:port` it listens on. */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * SINO_METRICS_LISTEN: a listener of its own that serves only GET /metrics, for a scraper on a
 * private network (and the only way a `sino worker`, which has no HTTP server, shows its metrics).
 * The token, when set, is required here too.
 */
export async function startMetricsListener(deps: MetricsEndpointDeps & { readonly listen: ListenAddress; readonly logger: FastifyBaseLogger }): Promise<MetricsListener> {
  const app = Fastify({ loggerInstance: deps.logger, disableRequestLogging: true, forceCloseConnections: true });
  app.get(METRICS_PATH, (request, reply) => answer(deps, request, reply));
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody(deps.translator, "not_found")));
  try {
    await app.listen({ host: deps.listen.host, port: deps.listen.port });
  } catch (error) {
    await app.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : deps.listen.port;
  const host = deps.listen.host.includes(":") ? `[${deps.listen.host}]` : deps.listen.host;
  return { url: `http://${host}:${port}`, close: () => app.close() };
}

async function answer(deps: MetricsEndpointDeps, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  if (deps.token !== undefined && !authorised(request.headers.authorization, deps.token)) {
    // RFC 6750 §3: a bearer-protected resource names its scheme in the challenge.
    return reply.code(401).header("www-authenticate", 'Bearer realm="sino-metrics"').send(errorBody(deps.translator, "metrics_token_invalid"));
  }
  const text = await deps.metrics.scrape();
  return reply.header("content-type", deps.metrics.contentType).header("cache-control", "no-store").send(text);
}

function authorised(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  // Compared even when absent, so a missing header takes as long as a wrong one.
  return constantTimeEqual(match?.[1] ?? "", token) && match !== null;
}
