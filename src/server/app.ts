import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { VapidKeys } from "../push/vapid-keys.js";
import { API_PREFIX, API_ROUTES } from "../shared/api/routes.js";
import type { Database } from "../store/database.js";
import type { SettingsRepository } from "../store/settings-repository.js";
import type { SubscriptionsRepository } from "../store/subscriptions-repository.js";
import type { Config } from "./config.js";
import { errorBody, toApiError } from "./errors.js";
import type { Translator } from "./i18n.js";
import { registerConfigRoutes } from "./routes/config/config.js";
import { registerSubscriptionRoutes } from "./routes/subscriptions/subscriptions.js";
import { registerWebApp, sendIndexHtml } from "./web-app.js";

export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  readonly repositories: {
    readonly subscriptions: SubscriptionsRepository;
    readonly settings: SettingsRepository;
  };
  readonly vapidKeys: VapidKeys;
  readonly logger: FastifyBaseLogger;
  readonly translator: Translator;
  /** The clock, in epoch milliseconds. */
  readonly now?: () => number;
}

/** The methods each API path answers, for the Allow header of a 405. */
const API_METHODS = new Map<string, string>([
  [API_ROUTES.config, "GET, HEAD"],
  [API_ROUTES.subscriptions, "POST, DELETE"],
]);

/** The Fastify application with every route, not yet listening: `startServer` does that. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger,
    // Keep-alive sockets would otherwise hold `close()` open until they time out.
    forceCloseConnections: true,
    return503OnClosing: true,
    // Public API: bodies are small. Routes that take JSON set their own, smaller limit.
    bodyLimit: 64 * 1024,
  });
  const now = deps.now ?? Date.now;

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: apiError.code }, "request refused");
    return reply.code(apiError.statusCode).send(errorBody(deps.translator, apiError.code, apiError.field));
  });

  registerConfigRoutes(app, { vapidPublicKey: deps.vapidKeys.publicKey });
  registerSubscriptionRoutes(app, {
    subscriptions: deps.repositories.subscriptions,
    endpointPolicy: deps.config.endpointPolicy,
    now,
  });

  const servesWebApp = await registerWebApp(app, deps.config.webDir);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "/";
    const isApi = path === API_PREFIX || path.startsWith(`${API_PREFIX}/`) || path.startsWith("/api/") || path === "/api";
    const isPageNavigation =
      (request.method === "GET" || request.method === "HEAD") && !isApi && !/\.[a-z0-9]+$/i.test(path);
    if (servesWebApp && isPageNavigation) return sendIndexHtml(reply);
    // A known API path with a method it does not take: say so (RFC 9110 §15.5.6) rather than 404.
    const allowed = API_METHODS.get(path);
    if (allowed !== undefined) {
      return reply.code(405).header("allow", allowed).send(errorBody(deps.translator, "method_not_allowed"));
    }
    return reply.code(404).send(errorBody(deps.translator, "not_found"));
  });

  return app;
}
