import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import fastifyCookie from "@fastify/cookie";
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { DeliveryEngine } from "../delivery/engine.js";
import type { ResolveHost } from "../delivery/webhooks/url-policy.js";
import type { VapidKeys } from "../push/vapid-keys.js";
import { API_PREFIX, API_ROUTES } from "../shared/api/routes.js";
import type { DatabaseOutage } from "../store/database-outage.js";
import type { Repositories } from "../store/repositories.js";
import { createAuthenticator } from "./auth/authenticator.js";
import { createCommonPasswords } from "./auth/common-passwords.js";
import { createCsrfGuard } from "./auth/csrf.js";
import { createLoginThrottle, type ThrottlePolicy } from "./auth/login-throttle.js";
import { createPasswordHasher, type PasswordHasher } from "./auth/password.js";
import { sessionCookieName } from "./auth/session-cookie.js";
import { createSiteSubscribeRateLimit, registerRateLimiting } from "./auth/publish-rate-limit.js";
import type { Config } from "./config.js";
import { errorBody, limitError, toApiError } from "./errors.js";
import type { Translator } from "./i18n.js";
import { registerApiDocs, registerOpenApi } from "./openapi.js";
import type { AuthRoutesDeps } from "./routes/auth-deps.js";
import { registerChannelRoutes } from "./routes/channels/channels.js";
import { registerConfigRoutes } from "./routes/config/config.js";
import { registerOrganisationRoutes } from "./routes/organisation/organisation.js";
import { registerWebManifest } from "./web-manifest.js";
import { registerEventRoutes } from "./routes/events/events.js";
import { registerNoticeRoutes } from "./routes/notices/notices.js";
import { registerStatsRoutes } from "./routes/stats/stats.js";
import { registerSubscriberRoutes } from "./routes/subscribers/subscribers.js";
import { registerNotificationRoutes } from "./routes/notifications/notifications.js";
import { registerPeopleLinkRoutes } from "./routes/people/people-links.js";
import { registerRecipientRoutes } from "./routes/notifications/recipients.js";
import { registerPeopleRoutes } from "./routes/people/people.js";
import { registerPeopleTagsRoutes } from "./routes/people/people-tags.js";
import { registerSessionRoutes } from "./routes/session/session.js";
import { registerSetupRoutes } from "./routes/setup/setup.js";
import { registerSubscriptionRoutes } from "./routes/subscriptions/subscriptions.js";
import { registerTokenRoutes } from "./routes/tokens/tokens.js";
import { registerUserRoutes } from "./routes/users/users.js";
import { registerWebhookRoutes } from "./routes/webhooks/webhooks.js";
import { registerFeedRoutes } from "./routes/feeds/feeds.js";
import { resolveDeliveryOptions } from "../delivery/delivery-options.js";
import { organisationLogoUrl } from "../shared/api/organisation.js";
import { registerOperatorPrivacyRoutes, registerSubscriberPrivacyRoutes } from "./routes/privacy/privacy.js";
import { registerEmbedAssets } from "./embed-assets.js";
import { registerHealthRoutes } from "./health/health-routes.js";
import type { ReadinessCheck } from "./health/readiness.js";
import { registerSecurityHeaders } from "./security-headers.js";
import { registerWebApp, sendIndexHtml } from "./web-app.js";
import { registerSiteRoutes } from "./routes/sites/sites.js";
import { registerImportRoutes } from "./routes/import/import.js";
import { registerSavedSegmentRoutes } from "./routes/saved-segments/saved-segments.js";
import { registerTemplateRoutes } from "./routes/templates/templates.js";
import { registerSegmentQueryRoutes } from "./routes/segments/segment-queries.js";
import { registerQuietHoursRoutes } from "./routes/engagement/quiet-hours.js";
import { registerEngagementStatsRoutes } from "./routes/engagement/engagement-stats.js";
import { PUBLIC_API_PATHS, pathOf, registerPublicCors } from "./sites/public-cors.js";
import { createSiteRegistry } from "./sites/site-registry.js";
import { createSitePublicKeys } from "./sites/site-public-keys.js";
import { registerSiteKeyRoutes } from "./routes/site-keys/site-keys.js";
import { registerHttpMetrics } from "./metrics/http-metrics.js";
import { registerMetricsRoute } from "./metrics/metrics-endpoint.js";
import type { Metrics } from "./metrics/metrics.js";
import { createIngestion, type Ingestion } from "./ingestion/ingestion.js";
import { dialectOf } from "../store/database.js";
import { registerAuditHook } from "./audit/audit-hook.js";
import { registerAuditRoutes, registerPrivacyRoutes } from "./audit/audit-routes.js";

export interface AppDeps {
  readonly config: Config;
  /** Built once by whoever wires the process (`startServer`, a test), shared by every route. */
  readonly repositories: Repositories;
  readonly vapidKeys: VapidKeys;
  readonly logger: FastifyBaseLogger;
  readonly translator: Translator;
  /** The clock, in epoch milliseconds. */
  readonly now?: () => number;
  /**
   * The group-committed write paths (reports, registrations, unsubscribes); default: made here
   * from `repositories`. Drained when the app closes, before connections are cut.
   */
  readonly ingestion?: Ingestion;
  /** The delivery engine the notifications routes use; without it (some tests) they are not registered. */
  readonly delivery?: DeliveryEngine;
  /** This process's webhook dispatcher, woken after a test ping or a resend (absent: another process delivers). */
  readonly webhookDispatcher?: { wake(): void };
  /** Tests: how webhook URLs' host names resolve (DNS otherwise). */
  readonly resolveWebhookHost?: ResolveHost;
  /** This process's feed poller, asked to poll at once after "Ler agora" (absent: another process polls). */
  readonly feedPoller?: { pollNow(): Promise<void> };
  /** Overrides for operator authentication (tests). */
  readonly auth?: AuthOptions;
  /** Told about database outages: the first failing request logs it, the others stay quiet. */
  readonly outage?: Pick<DatabaseOutage, "failed">;
  /** What GET /readyz checks (`startServer` builds it); without it the probes are not registered. */
  readonly readiness?: ReadinessCheck;
  /** This process's metrics: request timings, ingestion counters and GET /metrics (see SINO_METRICS_*). */
  readonly metrics?: Metrics;
}

export interface AuthOptions {
  /** How a throttled sign-in waits (default: a real timer). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly throttlePolicy?: ThrottlePolicy;
  readonly hasher?: PasswordHasher;
}

/** The methods each API path answers, for the Allow header of a 405. */
const API_METHODS = new Map<string, string>([
  [API_ROUTES.config, "GET, HEAD"],
  [API_ROUTES.subscriptions, "POST, DELETE"],
  [API_ROUTES.setup, "GET, HEAD, POST"],
  [API_ROUTES.session, "GET, HEAD, POST, DELETE"],
  [API_ROUTES.users, "GET, HEAD, POST"],
  [API_ROUTES.tokens, "GET, HEAD, POST"],
  [API_ROUTES.subscriptionChannels, "PUT"],
  [API_ROUTES.subscriptionUser, "PUT, DELETE"],
  [API_ROUTES.subscriptionTags, "PUT"],
  [API_ROUTES.peopleTags, "POST"],
  [API_ROUTES.channels, "GET, HEAD, POST"],
  [API_ROUTES.events, "POST"],
  [API_ROUTES.notices, "GET, HEAD"],
  [API_ROUTES.subscribers, "GET, HEAD"],
  [API_ROUTES.stats, "GET, HEAD"],
  [API_ROUTES.notifications, "GET, HEAD, POST"],
  [API_ROUTES.overview, "GET, HEAD"],
  [API_ROUTES.sites, "GET, HEAD, POST"],
  [API_ROUTES.audience, "GET, HEAD"],
  [API_ROUTES.webhooks, "GET, HEAD, POST"],
  [API_ROUTES.feeds, "GET, HEAD, POST"],
  [API_ROUTES.sessionPassword, "PUT"],
  [API_ROUTES.audit, "GET, HEAD"],
  [API_ROUTES.auditCsv, "GET, HEAD"],
  [API_ROUTES.privacy, "GET, HEAD"],
  [API_ROUTES.subscribersImport, "POST"],
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
    // The client address the sign-in throttle counts per address (see SINO_TRUST_PROXY).
    // (A union Fastify's overloads do not take as is; every member is one of its accepted forms.)
    trustProxy: deps.config.trustProxy as boolean,
    // Path parameters carry people's ids (up to 128 characters, percent-encoded: up to 12 bytes
    // each for a 4-byte UTF-8 one); find-my-way's default of 100 would answer 404 to long ones.
    routerOptions: { maxParamLength: 128 * 12 },
    // Every log line of a request carries its id (`reqId`): the caller's X-Request-Id when it is
    // well formed (a proxy's or load balancer's, so one id follows the request through both
    // logs), a new UUID otherwise. It goes back in the answer's X-Request-Id.
    requestIdHeader: false,
    genReqId: (request) => requestIdOf(request.headers["x-request-id"]),
  });
  app.addHook("onRequest", async (request, reply) => {
    reply.header("x-request-id", request.id);
  });
  const now = deps.now ?? Date.now;
  const ingestion =
    deps.ingestion ??
    createIngestion({ events: deps.repositories.notificationEvents, subscriptions: deps.repositories.subscriptions, subscriptionChannels: deps.repositories.subscriptionChannels, dialect: dialectOf(deps.config.databaseUrl), capacity: deps.config.writeQueue });
  // On close, new requests already get 503 (return503OnClosing); before the open connections are
  // cut, every write already taken commits and its answer goes out: a stop loses no report.
  app.addHook("preClose", async () => {
    await ingestion.close();
    // The handlers resume after their commits and write their answers on the next turns.
    await new Promise<void>((resolve) => setImmediate(resolve));
  });
  // Every route's zod schema validates its request and (where declared) its answer, and the
  // same schemas produce the OpenAPI document.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((error, request, reply) => {
    let apiError = toApiError(error);
    // Too large for this route: say how large a body it takes (routes set their own limits).
    if (apiError.code === "payload_too_large" && apiError.detail === undefined) {
      apiError = limitError("payload_too_large", undefined, "bodyBytes", request.routeOptions.bodyLimit ?? 64 * 1024, { cause: error });
    }
    if (apiError.code === "database_unavailable") {
      // Expected while the database restarts: no stack trace; the client is told when to retry.
      // The outage itself is logged once (start and end) by the tracker, not once per request.
      const cause = error instanceof Error ? error.message : String(error);
      if (deps.outage?.failed(error, "http") === true) request.log.debug({ code: apiError.code, cause }, "database unavailable");
      else request.log.warn({ code: apiError.code, cause }, "database unavailable");
      reply.header("retry-after", "5");
    } else if (apiError.code === "write_queue_full") {
      // Backpressure, not a fault: the writer is a moment behind (or this process is stopping).
      request.log.info({ code: apiError.code }, "write queue full");
      reply.header("retry-after", "1");
    } else if (apiError.statusCode >= 500) request.log.error({ err: error }, "request failed");
    else request.log.info({ code: apiError.code }, "request refused");
    return reply.code(apiError.statusCode).send(errorBody(deps.translator, apiError.code, apiError.field, apiError.detail));
  });

  // Before any route, so its hooks time every one of them.
  if (deps.metrics !== undefined) registerHttpMetrics(app, deps.metrics);
  await registerSecurityHeaders(app, { publicUrl: deps.config.publicUrl });
  const authDeps = createAuthDeps(deps, now);
  await app.register(fastifyCookie);
  app.decorateRequest("principal", null);
  app.decorate("authenticator", authDeps.authenticator);
  // Sites. The public subscriber API never reads the session cookie, so the CSRF guard
  // leaves it to its own origin check (registered sites and Sino's own; see public-cors.ts).
  const publicOrigin = new URL(deps.config.publicUrl).origin;
  const siteRegistry = createSiteRegistry({ sites: deps.repositories.sites, publicOrigin, now });
  const sitePublicKeys = createSitePublicKeys(deps.vapidKeys.publicKey, deps.repositories.siteKeys);
  app.addHook("onRequest", createCsrfGuard(deps.config.publicUrl, { exempt: (request) => PUBLIC_API_PATHS.has(pathOf(request)) }));
  await registerRateLimiting(app);
  await registerOpenApi(app, deps.translator, deps.config.publicUrl, sessionCookieName(new URL(deps.config.publicUrl).protocol === "https:"));

  const { channels, subscribers } = deps.repositories;
  const { personalData } = deps.repositories;
  const maxChannelsPerSubscription = deps.config.maxChannelsPerSubscription;
  // What the operator-facing routes share: who is signed in, the pt-BR texts, the clock.
  const operatorDeps = { authenticator: authDeps.authenticator, translator: deps.translator, now };
  // The audit log of operator actions (audited-routes.ts), before every route it records.
  registerAuditHook(app, { audit: deps.repositories.audit, users: deps.repositories.users, authenticator: authDeps.authenticator, now });
  // The public subscriber API in its own context: CORS (and its Vary: Origin) only there.
  await app.register(async (publicApi) => {
    await registerPublicCors(publicApi, siteRegistry, publicOrigin);
    registerConfigRoutes(publicApi, {
      publicKeys: sitePublicKeys,
      translator: deps.translator,
      channels,
      maxChannelsPerSubscription,
      sites: siteRegistry,
      timeZone: deps.config.timeZone,
      organisation: deps.repositories.organisation,
      publicUrl: deps.config.publicUrl,
    });
    registerSubscriptionRoutes(publicApi, {
      subscriptions: deps.repositories.subscriptions,
      ingestion,
      subscriptionChannels: deps.repositories.subscriptionChannels,
      tags: deps.repositories.tags,
      maxChannelsPerSubscription,
      endpointPolicy: deps.config.endpointPolicy,
      translator: deps.translator,
      now,
      publicKeys: sitePublicKeys,
      sites: {
        registry: siteRegistry,
        repository: deps.repositories.sites,
        maxSubscriptionsPerSite: deps.config.sites.maxSubscriptionsPerSite,
        rateLimit: createSiteSubscribeRateLimit(publicApi, deps.config.sites.subscribeRateLimit),
      },
    });
    registerEventRoutes(publicApi, {
      ...operatorDeps,
      events: deps.repositories.notificationEvents,
      ingestion,
      notifications: deps.repositories.notifications,
      retryCauses: deps.repositories.retryCauses,
    });
    registerPrivacyRoutes(publicApi, { retention: deps.config.retention, expiryDays: deps.config.hygiene.expiryDays, organisation: deps.repositories.organisation, translator: deps.translator });
    registerSubscriberPrivacyRoutes(publicApi, { personalData, translator: deps.translator, now });
    registerNoticeRoutes(publicApi, { notices: deps.repositories.notices, channels, translator: deps.translator, streamLimits: deps.config.streams });
    registerQuietHoursRoutes(publicApi, { engagement: deps.repositories.engagement, translator: deps.translator });
  });
  registerSetupRoutes(app, authDeps);
  registerSessionRoutes(app, authDeps);
  registerUserRoutes(app, authDeps);
  registerTokenRoutes(app, authDeps);
  registerChannelRoutes(app, { ...operatorDeps, channels });
  registerSiteRoutes(app, {
    ...operatorDeps,
    sites: deps.repositories.sites,
    registry: siteRegistry,
    publicUrl: deps.config.publicUrl,
    identitySecretGraceMs: deps.config.identitySecretGraceMs,
    // The lead wires SINO_FREQUENCY_CAP / SINO_SEND_WINDOW here once the delivery gates add them.
    delivery: { engagement: deps.repositories.engagement, deliveryDefaults: { frequencyCap: deps.config.engagement.frequencyCap, sendWindow: deps.config.sendWindow, timeZone: deps.config.timeZone } },
  });
  registerSiteKeyRoutes(app, { ...operatorDeps, siteKeys: deps.repositories.siteKeys, registry: siteRegistry, defaultPublicKey: deps.vapidKeys.publicKey });
  registerOrganisationRoutes(app, { ...operatorDeps, organisation: deps.repositories.organisation, publicUrl: deps.config.publicUrl });
  registerWebManifest(app, { organisation: deps.repositories.organisation, translator: deps.translator, publicUrl: deps.config.publicUrl });
  registerPeopleLinkRoutes(app, { ...operatorDeps, subscriptions: deps.repositories.subscriptions });
  registerSubscriberRoutes(app, { ...operatorDeps, subscribers, channels, tags: deps.repositories.tags, sleepingDays: deps.config.sleepingDays });
  await registerImportRoutes(app, {
    ...operatorDeps,
    repository: deps.repositories.subscriptionImport,
    sites: deps.repositories.sites,
    endpointPolicy: deps.config.endpointPolicy,
    maxChannelsPerSubscription,
    maxSubscriptionsPerSite: deps.config.sites.maxSubscriptionsPerSite,
    maxBytes: deps.config.importMaxBytes,
  });
  registerStatsRoutes(app, { ...operatorDeps, stats: deps.repositories.stats, channels, subscribers, timeZone: deps.config.timeZone });
  registerEngagementStatsRoutes(app, { ...operatorDeps, engagement: deps.repositories.engagement, sleepingDays: deps.config.sleepingDays });
  registerPeopleRoutes(app, { ...operatorDeps, people: deps.repositories.people, tags: deps.repositories.tags, publicUrl: deps.config.publicUrl });
  registerPeopleTagsRoutes(app, { ...operatorDeps, tags: deps.repositories.tags });
  registerOperatorPrivacyRoutes(app, { ...operatorDeps, personalData });
  registerSegmentQueryRoutes(app, { ...operatorDeps, segments: deps.repositories.segments });
  registerRecipientRoutes(app, {
    ...operatorDeps,
    recipients: deps.repositories.recipients,
    notifications: deps.repositories.notifications,
    publicUrl: deps.config.publicUrl,
  });
  registerSavedSegmentRoutes(app, {
    ...operatorDeps,
    savedSegments: deps.repositories.savedSegments,
    count: (tree, tagKinds, at) => deps.repositories.segments.countSegment(tree, tagKinds, at),
  });
  registerTemplateRoutes(app, {
    ...operatorDeps,
    templates: deps.repositories.templates,
    channels: deps.repositories.channels,
    sites: deps.repositories.sites,
    savedSegments: deps.repositories.savedSegments,
    publicUrl: deps.config.publicUrl,
  });
  registerWebhookRoutes(app, {
    ...operatorDeps,
    webhooks: deps.repositories.webhooks,
    urlPolicy: { allowPrivateAddresses: deps.config.webhooks.allowPrivateAddresses },
    ...(deps.resolveWebhookHost === undefined ? {} : { resolveHost: deps.resolveWebhookHost }),
    ...(deps.webhookDispatcher === undefined ? {} : { wake: () => deps.webhookDispatcher!.wake() }),
  });
  registerFeedRoutes(app, {
    ...operatorDeps,
    feeds: deps.repositories.feeds,
    channels: deps.repositories.channels,
    urlPolicy: { allowPrivateAddresses: deps.config.feeds.allowPrivateAddresses },
    minIntervalSeconds: deps.config.feeds.minIntervalSeconds,
    defaultIntervalSeconds: deps.config.feeds.defaultIntervalSeconds,
    jobSize: resolveDeliveryOptions({ lanes: deps.config.delivery.lanes, batchSize: deps.config.delivery.batchSize }).jobSize,
    publicUrl: deps.config.publicUrl,
    async defaultIcon() {
      const organisation = await deps.repositories.organisation.get();
      return organisation.logo === null || organisation.updatedAt === null ? null : organisationLogoUrl(deps.config.publicUrl, organisation.updatedAt);
    },
    ...(deps.resolveWebhookHost === undefined ? {} : { resolveHost: deps.resolveWebhookHost }),
    ...(deps.feedPoller === undefined ? {} : { pollNow: () => void deps.feedPoller!.pollNow().catch(() => undefined) }),
    ...(deps.delivery === undefined ? {} : { onSent: () => deps.delivery!.wake() }),
  });
  if (deps.delivery !== undefined) {
    await registerNotificationRoutes(app, {
      engine: deps.delivery,
      repositories: deps.repositories,
      authenticator: authDeps.authenticator,
      translator: deps.translator,
      publicUrl: deps.config.publicUrl,
      now,
      publishRateLimit: deps.config.publishRateLimit,
      engagement: deps.config.engagement, // gates
    });
  }
  registerAuditRoutes(app, { ...operatorDeps, audit: deps.repositories.audit });
  registerApiDocs(app, deps.translator);
  if (deps.readiness !== undefined) registerHealthRoutes(app, { check: deps.readiness, translator: deps.translator, logger: deps.logger });
  // Served here only behind the token; with SINO_METRICS_LISTEN the scraper uses that listener.
  if (deps.metrics !== undefined) {
    const { token, listen } = deps.config.metrics;
    registerMetricsRoute(app, { metrics: deps.metrics, token, translator: deps.translator, served: token !== undefined && listen === undefined });
  }

  await registerEmbedAssets(app, { webDir: deps.config.webDir, publicUrl: deps.config.publicUrl, translator: deps.translator });
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

/**
 * A caller's request id is taken when it is short and made of the characters ids are made of
 * (UUIDs, ULIDs, AWS/Heroku/Cloudflare ids): anything else could forge log lines or fill them.
 */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === "string" && WELL_FORMED_REQUEST_ID.test(header) ? header : randomUUID();
}

function createAuthDeps(deps: AppDeps, now: () => number): AuthRoutesDeps {
  const { sessions, apiTokens: tokens } = deps.repositories;
  return {
    users: deps.repositories.users,
    sessions,
    tokens,
    authenticator: createAuthenticator({
      sessions,
      tokens,
      now,
      secureCookies: new URL(deps.config.publicUrl).protocol === "https:",
    }),
    throttle: createLoginThrottle({
      attempts: deps.repositories.loginAttempts,
      now,
      ...(deps.auth?.throttlePolicy === undefined ? {} : { policy: deps.auth.throttlePolicy }),
    }),
    hasher: deps.auth?.hasher ?? createPasswordHasher(),
    commonPasswords: createCommonPasswords(),
    translator: deps.translator,
    publicUrl: deps.config.publicUrl,
    now,
    sleep: deps.auth?.sleep ?? ((ms) => sleep(ms)),
  };
}
