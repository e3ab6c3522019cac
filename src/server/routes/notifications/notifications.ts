import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  FINAL_STATUSES,
  IDEMPOTENCY_KEY_HEADER,
  NOTIFICATION_LIMITS,
  createNotificationRequestSchema,
  createNotificationResponseSchema,
  listNotificationsQuerySchema,
  notificationResponseSchema,
  notificationsPageSchema,
  overviewSchema,
  audienceSizeQuerySchema,
  audienceSizeSchema,
} from "../../../shared/api/notifications.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { createPublishRateLimit } from "../../auth/publish-rate-limit.js";
import { siteFilterQuerySchema } from "../../../shared/api/sites.js";
import { apiError } from "../../errors.js";
import { OPERATOR_SECURITY, apiErrorSchema, textResponse } from "../../openapi.js";
import { presentAudienceSize } from "../../presenters/audience-size.js";
import { presentNotification } from "../../presenters/notification.js";
import { clickRate } from "../../../store/notification-events-repository.js";
import { requireJson } from "../../require-json.js";
import type { NotificationRoutesDeps } from "./notifications-deps.js";
import { streamProgress } from "./progress-stream.js";
import { checkIdempotencyKey, publish, toApiFailure, type PublishDeps } from "./publish.js";
import { registerQuickPublish } from "./quick-publish.js";
import { registerRescheduleRoute } from "./reschedule.js";
import { registerSendNoticeRoutes } from "./send-notice.js";
import { resolveAudience, type AudienceFields } from "./resolve-audience.js";
import type { Audience } from "../../../store/notifications-repository.js";

const idParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: "notification_not_found" }) });
const RECENT_SENDS = 5;
/** GET /audience's refusals point at its query parameters. */
const QUERY_FIELDS: AudienceFields = { channels: "channels", sites: "sites" };
/**
 * A `users` send may name 10,000 people, each with up to 1 KB of placeholder data: room for
 * that, and the JSON around it, instead of Fastify's 1 MiB default.
 */
const CREATE_BODY_LIMIT = NOTIFICATION_LIMITS.users * (NOTIFICATION_LIMITS.personData + 512) + 64 * 1024;

/**
 * Sends: create (now or scheduled, Idempotency-Key), list, read, cancel, follow live (SSE), the
 * overview, and the plain-text quick publish. Any signed-in operator or token may use them
 * (publishers send; a `publish` token is a publisher); creating is rate-limited per token.
 */
export async function registerNotificationRoutes(app: FastifyInstance, deps: NotificationRoutesDeps): Promise<void> {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const requireUser = deps.authenticator.requireUser;
  const rateLimit = createPublishRateLimit(app, deps.publishRateLimit);
  const history = deps.repositories.notificationHistory;
  const sites = deps.repositories.sites;
  const publishDeps: PublishDeps = {
    engine: deps.engine,
    subscriptions: deps.repositories.subscriptions,
    notifications: deps.repositories.notifications,
    savedSegments: deps.repositories.savedSegments,
    channels: deps.repositories.channels,
    sites,
    publicUrl: deps.publicUrl,
    now: deps.now,
  };
  const publicOrigin = new URL(deps.publicUrl).origin;
  const doc = (summary: string) => ({ summary: t(summary), tags: [t("api:tags.notifications")], security: OPERATOR_SECURITY });
  const byId = `${API_ROUTES.notifications}/:id`;

  async function findSend(id: string) {
    const send = await deps.engine.getNotification(Number(id));
    if (send === undefined) throw apiError("notification_not_found");
    return send;
  }

  routes.post(
    API_ROUTES.notifications,
    {
      onRequest: [requireUser, requireJson],
      preHandler: rateLimit,
      bodyLimit: CREATE_BODY_LIMIT,
      schema: {
        operationId: "createNotification",
        ...doc("api:routes.notificationsCreate"),
        description: t("api:descriptions.notificationsCreate"),
        headers: z.object({ [IDEMPOTENCY_KEY_HEADER]: z.string().optional() }),
        body: createNotificationRequestSchema,
        response: { 201: createNotificationResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request, reply) => {
      const key = checkIdempotencyKey(request.headers[IDEMPOTENCY_KEY_HEADER]);
      const answer = await publish(publishDeps, request.principal!, request.body, key, API_ROUTES.notifications);
      if (answer.replayed) reply.header("idempotent-replayed", "true");
      request.log.info({ send: answer.body.notification.id, status: answer.body.notification.status, replayed: answer.replayed }, "send created");
      return reply.code(answer.statusCode).send(answer.body);
    },
  );

  routes.get(
    API_ROUTES.notifications,
    {
      onRequest: requireUser,
      schema: { operationId: "listNotifications", ...doc("api:routes.notificationsList"), querystring: listNotificationsQuerySchema, response: { 200: notificationsPageSchema, "4xx": apiErrorSchema } },
    },
    async (request) => {
      const { query, status, page, pageSize } = request.query;
      const { sends, total } = await history.list({
        ...(query === undefined ? {} : { query }),
        ...(status === undefined ? {} : { status }),
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { notifications: sends.map(presentNotification), total, page, pageSize };
    },
  );

  routes.get(
    byId,
    { onRequest: requireUser, schema: { operationId: "getNotification", ...doc("api:routes.notificationsGet"), params: idParams, response: { 200: notificationResponseSchema, "4xx": apiErrorSchema } } },
    async (request) => {
      const send = await findSend(request.params.id);
      // The service workers' shown/clicked/closed reports: counted for the one send's answer only,
      // not for every row of the list.
      const events = await deps.repositories.notificationEvents.countsFor(send.id);
      const presented = presentNotification(send);
      return {
        notification: { ...presented, counts: { ...presented.counts, ...events, clickRate: clickRate(events.clicked, send.counts.accepted) } },
      };
    },
  );

  routes.post(
    `${byId}/cancel`,
    { onRequest: requireUser, schema: { operationId: "cancelNotification", ...doc("api:routes.notificationsCancel"), params: idParams, response: { 200: notificationResponseSchema, "4xx": apiErrorSchema } } },
    async (request) => {
      const before = await findSend(request.params.id);
      if (FINAL_STATUSES.includes(before.status)) throw apiError("send_finished");
      const after = await deps.engine.cancelNotification(before.id).catch(toApiFailure);
      // It may have finished between the read and the cancel.
      if (after.status !== "cancelled") throw apiError("send_finished");
      request.log.info({ send: after.id, was: before.status }, "send cancelled");
      return { notification: presentNotification(after) };
    },
  );

  registerRescheduleRoute(app, { ...deps, notifications: deps.repositories.notifications, publishDeps });

  routes.get(
    `${byId}/events`,
    {
      onRequest: requireUser,
      schema: {
        operationId: "streamNotificationProgress",
        ...doc("api:routes.notificationsEvents"),
        description: t("api:descriptions.notificationsEvents"),
        params: idParams,
        produces: ["text/event-stream"],
        response: { 200: textResponse("text/event-stream", t("api:responses.eventStream")), "4xx": apiErrorSchema },
      },
    },
    async (request, reply) => {
      const send = await findSend(request.params.id);
      streamProgress(deps.engine, request, reply, send, { pollMs: deps.progressPollMs ?? 1000 });
    },
  );

  routes.get(
    API_ROUTES.overview,
    {
      onRequest: requireUser,
      schema: { operationId: "getOverview", ...doc("api:routes.overview"), querystring: siteFilterQuerySchema, response: { 200: overviewSchema, "4xx": apiErrorSchema } },
    },
    async (request) => {
      // `?site=`: the subscribers of one site (an unknown id counts none).
      const site = request.query.site;
      const count = site === undefined ? deps.repositories.subscriptions.count() : sites.countSubscriptions(Number(site));
      const [total, recent] = await Promise.all([count, history.list({ offset: 0, limit: RECENT_SENDS })]);
      return { subscribers: { total }, recentSends: recent.sends.map(presentNotification) };
    },
  );

  routes.get(
    API_ROUTES.audience,
    {
      onRequest: requireUser,
      schema: {
        operationId: "getAudienceSize",
        ...doc("api:routes.audience"),
        description: t("api:descriptions.audience"),
        querystring: audienceSizeQuerySchema,
        response: { 200: audienceSizeSchema, "4xx": apiErrorSchema },
      },
    },
    async (request) => {
      const { channels, sites: siteIds = [], users, segment } = request.query;
      // The send's own rules and count: what this says is what POST /notifications would reach now.
      // People: only their subscriptions, on the sites chosen; channels do not apply to them.
      const resolved = await resolveAudience(publishDeps, { channels: users === undefined ? channels : undefined, sites: siteIds }, QUERY_FIELDS);
      const narrowed = resolved.audience.sites === undefined ? {} : { sites: resolved.audience.sites };
      let audience: Audience = users === undefined ? resolved.audience : { kind: "people" as const, people: users.length, ...narrowed };
      if (segment !== undefined && users === undefined) {
        // A saved segment as it is now: channels do not apply to it (its expression may name some).
        const saved = await deps.repositories.savedSegments.findById(Number(segment));
        if (saved === undefined) throw apiError("segment_not_found", "segment");
        audience = { kind: "segment", segmentId: saved.id, name: saved.name, tree: null, text: null, tagKinds: saved.tagKinds, at: null, ...narrowed };
      }
      const [recipients, known] = await Promise.all([
        deps.repositories.notifications.countTargets(audience, users),
        sites.listPlain(),
      ]);
      const chosen = siteIds.map((id) => known.find((site) => String(site.id) === id)).filter((site) => site !== undefined);
      // gates: how many a marketing send made now would leave out (at their cap, sleeping).
      const gated = deps.engagement === undefined ? undefined : await deps.repositories.deliveryGates.countGated(audience, users ?? [], deps.engagement, new Map(known.map((site) => [site.id, site.frequencyCap])), deps.now());
      const size = presentAudienceSize(recipients, resolved.channels, chosen, publicOrigin, gated);
      return users === undefined ? size : { ...size, people: users.length };
    },
  );

  registerSendNoticeRoutes(app, deps);
  await registerQuickPublish(app, { ...deps, publishDeps, rateLimit });
}
