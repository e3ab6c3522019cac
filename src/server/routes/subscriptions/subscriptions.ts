import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { checkEndpoint, type EndpointPolicy } from "../../../push/endpoint-policy.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  forgetSubscriptionRequestSchema,
  identifySubscriptionRequestSchema,
  registerSubscriptionResponseSchema,
  subscriptionChannelsResponseSchema,
  subscriptionResponseSchema,
  type RegisterSubscriptionResponse,
  type SubscriptionResponse,
} from "../../../shared/api/subscriptions.js";
import type { SignedUserClaim } from "../../../shared/api/subscriptions.js";
import type { SubscriptionChannelsRepository } from "../../../store/subscription-channels-repository.js";
import type { PersonIdentification, SubscriptionsRepository } from "../../../store/subscriptions-repository.js";
import { apiError, limitError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { apiErrorSchema, noContentSchema } from "../../openapi.js";
import { browserFacts, validTimeZone } from "../../people/browser-facts.js";
import { checkUserSignature, type IdentityRefusal } from "../../people/person-identity.js";
import { isTooManyTags, type TagsRepository } from "../../../store/tags-repository.js";
import { registerSubscriptionTagsRoute } from "./subscription-tags.js";
import { presentSubscription } from "../../presenters/subscription.js";
import { requireJson } from "../../require-json.js";
import {
  MAX_USER_AGENT_LENGTH,
  SUBSCRIPTION_BODY_LIMIT,
  TAGGED_BODY_LIMIT,
  registerSubscriptionBody,
  removeSubscriptionBody,
  subscriptionChannelsBody,
} from "./schema.js";
import { checkAuth, checkP256dh } from "../../../push/key-policy.js";
import type { KnownSite, SiteRegistry } from "../../sites/site-registry.js";
import type { SitesRepository } from "../../../store/sites-repository.js";
import type { Ingestion } from "../../ingestion/ingestion.js";
import type { SitePublicKeys } from "../../sites/site-public-keys.js";
import { consentOf } from "../privacy/consent-input.js";
import { answers } from "../route-docs.js";

export interface SubscriptionRoutesDeps {
  readonly subscriptions: SubscriptionsRepository;
  /** Where registrations, unsubscribes, channel choices and person changes are written (group commit). */
  readonly ingestion: Pick<Ingestion, "registrations" | "removals" | "preferences" | "people">;
  readonly subscriptionChannels: SubscriptionChannelsRepository;
  readonly tags: Pick<TagsRepository, "mergeVisitorTagsWithProof">;
  /** SINO_MAX_CHANNELS_PER_SUBSCRIPTION. */
  readonly maxChannelsPerSubscription: number;
  readonly endpointPolicy: EndpointPolicy;
  readonly translator: Translator;
  readonly now: () => number;
  readonly sites: SubscriptionSitesDeps;
  /** Which VAPID key a registration was made with (recorded per subscription; issue 20). */
  readonly publicKeys: Pick<SitePublicKeys, "keyIdOfRegistration">;
}

/** Which site a registration belongs to, and the limits registered sites live under. */
export interface SubscriptionSitesDeps {
  readonly registry: Pick<SiteRegistry, "byKey" | "builtIn">;
  readonly repository: Pick<SitesRepository, "countSubscriptions">;
  /** Most subscriptions a registered site may hold (0: no cap); Sino's own site is never capped. */
  readonly maxSubscriptionsPerSite: number;
  /**
   * Counts a registration from a registered site against its client address (@fastify/rate-limit);
   * throws `site_rate_limited` over the limit.
   */
  readonly rateLimit: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
}

declare module "fastify" {
  interface FastifyRequest {
    /** The site a POST /subscriptions registers on, resolved before the handler. */
    subscriptionSite: KnownSite | null;
  }
}

export function registerSubscriptionRoutes(app: FastifyInstance, deps: SubscriptionRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = [t("api:tags.public")];
  app.decorateRequest("subscriptionSite", null);

  // POST: register a subscription; idempotent on the endpoint (201 new, 200 already known).
  routes.post(
    API_ROUTES.subscriptions,
    {
      bodyLimit: TAGGED_BODY_LIMIT,
      onRequest: requireJson,
      // After the body is parsed (the site key is in it), before anything is stored.
      preHandler: async (request, reply) => {
        const site = await siteOfRegistration(request, request.body.site, deps.sites.registry);
        request.subscriptionSite = site;
        if (!site.builtIn) await deps.sites.rateLimit(request, reply);
      },
      schema: {
        operationId: "createSubscription",
        security: [],
        summary: t("api:routes.subscribe"),
        tags,
        body: registerSubscriptionBody,
        response: answers({ 200: registerSubscriptionResponseSchema, 201: registerSubscriptionResponseSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      const endpoint = checkEndpoint(body.endpoint, deps.endpointPolicy);
      if (!endpoint.ok) throw endpoint.code === "endpoint_too_long" ? limitError(endpoint.code, "endpoint", "endpointChars", deps.endpointPolicy.maxLength) : apiError(endpoint.code, "endpoint");
      const p256dh = checkP256dh(body.keys.p256dh);
      if (!p256dh.ok) throw apiError(p256dh.code, "keys.p256dh");
      const auth = checkAuth(body.keys.auth);
      if (!auth.ok) throw apiError(auth.code, "keys.auth");

      const site = request.subscriptionSite ?? (await deps.sites.registry.builtIn());
      await checkSiteCap(site, endpoint.endpoint, deps);

      // pushsubscriptionchange / key rotation: with `previous` the browser proves it held the old
      // subscription, so the subscriber keeps their channels (the store moves them). With `user`,
      // the page's person is identified in the same transaction, verified against the site the
      // subscription belongs to: a refusal stores nothing at all.
      const now = deps.now();
      const userAgent = userAgentOf(request);
      const vapidKeyId = await deps.publicKeys.keyIdOfRegistration(site, body.applicationServerKey);
      // Written with the registrations around it in one transaction (group commit), answered
      // once that transaction committed.
      const result = await tooManyTagsAsError(() =>
        deps.ingestion.registrations.submit({
          input: {
            endpoint: endpoint.endpoint,
            p256dh: p256dh.value,
            auth: auth.value,
            userAgent,
            ...browserFacts(userAgent),
            timeZone: validTimeZone(body.timeZone),
            declarative: body.declarative === true,
            previous: body.previous,
            siteId: site.id,
            vapidKeyId,
            migrated: body.migrated === true,
            person: body.user === undefined ? undefined : verifiedPerson(body.user, now),
            consent: consentOf(request, body.consent, site),
          },
          now,
        }),
      );
      // The endpoint already belongs to a browser holding another auth secret: replacing its keys
      // would silently cut that browser off, and knowing an endpoint must not be enough for that.
      if (result.outcome === "auth_mismatch") throw apiError("subscription_auth_mismatch", "keys.auth");
      if (result.outcome === "identity_refused") throw apiError(result.refusal, "user.signature");
      request.log.info(
        {
          subscriptionId: result.subscription.id,
          siteId: site.id,
          pushHost: endpoint.url.host,
          outcome: result.outcome,
          previousMoved: result.previousMoved,
          migrated: body.migrated === true,
          identified: result.subscription.personId !== null,
        },
        "subscription registered",
      );
      const response: RegisterSubscriptionResponse = { subscription: presentSubscription(result.subscription, result.channels) };
      return reply.code(result.outcome === "created" ? 201 : 200).send(response);
    },
  );

  registerChannelChoiceRoute(app, deps);
  registerSubscriptionUserRoutes(app, deps);
  registerSubscriptionTagsRoute(app, deps);

  // DELETE: remove a subscription. The auth secret is the proof of possession (only the browser
  // and this server know it); the endpoint alone is not enough.
  routes.delete(
    API_ROUTES.subscriptions,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "deleteSubscription", security: [], summary: t("api:routes.unsubscribe"), tags, body: removeSubscriptionBody, response: answers({ 204: noContentSchema }) },
    },
    async (request, reply) => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");

      const result = await deps.ingestion.removals.submit({ endpoint: body.endpoint, auth: auth.value, now: deps.now() });
      if (result === "not_found") throw apiError("subscription_not_found", "endpoint");
      if (result === "auth_mismatch") throw apiError("subscription_auth_mismatch", "auth");
      request.log.info("subscription removed");
      return reply.code(204).send(null);
    },
  );
}

/**
 * The page's person, to be identified once the signature is checked against the keys of the
 * subscription's own site (read in the registration's transaction): a signature made with another
 * site's secret never verifies.
 */
function verifiedPerson(user: SignedUserClaim, now: number): PersonIdentification<IdentityRefusal> {
  return { personId: user.id, check: (keys) => checkUserSignature(keys, user.id, user.signature, now, user.tags), tags: user.tags };
}

/** Signed trusted tags that would leave the person with more than 100: 400, nothing stored. */
async function tooManyTagsAsError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isTooManyTags(error)) throw apiError("too_many_tags", "user.tags", { cause: error });
    throw error;
  }
}

/**
 * PUT /subscriptions/user identifies the browser's subscription as a person (the bell's
 * `identify()` once it is subscribed); DELETE makes it anonymous again (`forget()`, at sign-out),
 * its channels kept. Both with proof of possession, like the channel choice.
 */
function registerSubscriptionUserRoutes(app: FastifyInstance, deps: SubscriptionRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const tags = [t("api:tags.public")];
  const response = { 200: subscriptionResponseSchema, "4xx": apiErrorSchema };

  routes.put(
    API_ROUTES.subscriptionUser,
    {
      bodyLimit: TAGGED_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "identifySubscription", security: [], summary: t("api:routes.subscriptionUserIdentify"), tags, body: identifySubscriptionRequestSchema, response },
    },
    async (request): Promise<SubscriptionResponse> => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      const now = deps.now();
      // Written with the person changes around it in one transaction (group commit), answered once
      // that transaction committed; a refused claim or too many tags fails this request alone.
      const result = await tooManyTagsAsError(() =>
        deps.ingestion.people.submit({ proof: { endpoint: body.endpoint, auth: auth.value }, person: verifiedPerson(body.user, now), now }),
      );
      switch (result.outcome) {
        case "not_found":
          throw apiError("subscription_not_found", "endpoint");
        case "auth_mismatch":
          throw apiError("subscription_auth_mismatch", "auth");
        case "identity_refused":
          throw apiError(result.refusal, "user.signature");
        case "changed":
          request.log.info({ subscriptionId: result.subscription.id }, "subscription identified");
          return { subscription: presentSubscription(result.subscription, result.channels) };
      }
    },
  );

  routes.delete(
    API_ROUTES.subscriptionUser,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: { operationId: "forgetSubscriptionUser", security: [], summary: t("api:routes.subscriptionUserForget"), tags, body: forgetSubscriptionRequestSchema, response },
    },
    async (request): Promise<SubscriptionResponse> => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      const result = await deps.ingestion.people.submit({ proof: { endpoint: body.endpoint, auth: auth.value }, person: null, now: deps.now() });
      if (result.outcome === "not_found") throw apiError("subscription_not_found", "endpoint");
      if (result.outcome === "auth_mismatch") throw apiError("subscription_auth_mismatch", "auth");
      // Forgetting checks no claim, so nothing refuses it; said here so the answer below is typed.
      if (result.outcome === "identity_refused") throw apiError(result.refusal, "user.signature");
      request.log.info({ subscriptionId: result.subscription.id }, "subscription forgotten");
      return { subscription: presentSubscription(result.subscription, result.channels) };
    },
  );
}

/**
 * PUT /subscriptions/channels: the subscriber's choice, stored against the subscription with proof
 * of possession (endpoint + auth secret), all or nothing.
 */
function registerChannelChoiceRoute(app: FastifyInstance, deps: SubscriptionRoutesDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().put(
    API_ROUTES.subscriptionChannels,
    {
      bodyLimit: SUBSCRIPTION_BODY_LIMIT,
      onRequest: requireJson,
      schema: {
        operationId: "setSubscriptionChannels",
        security: [],
        summary: t("api:routes.subscriptionChannels"),
        tags: [t("api:tags.public")],
        body: subscriptionChannelsBody,
        response: answers({ 200: subscriptionChannelsResponseSchema }),
      },
    },
    async (request) => {
      const body = request.body;
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      const result = await deps.ingestion.preferences.submit({
        proof: { endpoint: body.endpoint, auth: auth.value },
        slugs: body.channels,
        max: deps.maxChannelsPerSubscription,
        now: deps.now(),
      });
      switch (result.outcome) {
        case "subscription_not_found":
          throw apiError("subscription_not_found", "endpoint");
        case "auth_mismatch":
          throw apiError("subscription_auth_mismatch", "auth");
        case "channel_not_found":
          throw apiError("channel_not_found", "channels");
        case "too_many_channels":
          throw limitError("too_many_channels", "channels", "channels", deps.maxChannelsPerSubscription);
        case "replaced":
          request.log.info({ channels: result.channels.length }, "subscription channels chosen");
          return { channels: result.channels };
      }
    },
  );
}

/**
 * The site a registration belongs to: the one its key names (whose origin must be the request's,
 * when the browser says where it comes from), else the registered site whose page sent it, else
 * Sino's own. The request's Origin was already checked against the registered ones (public CORS).
 */
async function siteOfRegistration(
  request: FastifyRequest,
  key: string | undefined,
  registry: SubscriptionSitesDeps["registry"],
): Promise<KnownSite> {
  const from = request.requestSite ?? { kind: "none" };
  if (key === undefined) return from.kind === "site" ? from.site : registry.builtIn();
  const site = await registry.byKey(key);
  if (site === undefined) throw apiError("site_not_found", "site");
  const mismatch = (from.kind === "site" && from.site.id !== site.id) || (from.kind === "own" && !site.builtIn);
  if (mismatch) throw apiError("site_origin_mismatch", "site");
  return site;
}

/**
 * A registered site may hold at most `maxSubscriptionsPerSite` subscriptions: a new endpoint over
 * it is refused (a known one re-registering on every visit is not). Two registrations racing at
 * the cap may both pass: a bound on a flood, not an exact count.
 */
async function checkSiteCap(site: KnownSite, endpoint: string, deps: SubscriptionRoutesDeps): Promise<void> {
  const cap = deps.sites.maxSubscriptionsPerSite;
  if (site.builtIn || cap === 0) return;
  if ((await deps.sites.repository.countSubscriptions(site.id)) < cap) return;
  if ((await deps.subscriptions.findByEndpoint(endpoint)) !== undefined) return;
  throw limitError("site_subscription_cap", "site", "siteSubscriptions", cap);
}

function userAgentOf(request: FastifyRequest): string | null {
  const ua = request.headers["user-agent"];
  if (ua === undefined || ua === "") return null;
  return ua.slice(0, MAX_USER_AGENT_LENGTH);
}
