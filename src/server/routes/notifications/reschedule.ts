import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { DeliveryEngine } from "../../../delivery/engine.js";
import { NOTIFICATION_URGENCIES, notificationResponseSchema, type NotificationAudience } from "../../../shared/api/notifications.js";
import { updateNotificationRequestSchema, type UpdateNotificationRequest } from "../../../shared/api/notification-edit.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { Notification, NotificationsRepository } from "../../../store/notifications-repository.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { presentNotification } from "../../presenters/notification.js";
import { requireJson } from "../../require-json.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { toApiFailure, toSendInput, type PublishDeps, type PublishRequest } from "./publish.js";
import { checkExempt } from "./delivery-gates.js";
import { answers } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface RescheduleRouteDeps {
  readonly engine: Pick<DeliveryEngine, "getNotification" | "rescheduleNotification">;
  readonly notifications: Pick<NotificationsRepository, "peopleData">;
  readonly publishDeps: PublishDeps;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

const idParams = idParamsOf("notification_not_found");

/**
 * PATCH /notifications/:id: edit or reschedule a scheduled send. The send as stored is turned
 * back into the request that would create it, the fields given replace its own, and the result
 * goes through the very checks of POST /notifications (links, schedule window, channels, sites,
 * segment, people, placeholders, payload size) before the repository swaps it in — only while the
 * row still says `scheduled` (see src/store/reschedule-notification.ts).
 */
export function registerRescheduleRoute(app: FastifyInstance, deps: RescheduleRouteDeps): void {
  const { t } = deps.translator;
  app.withTypeProvider<ZodTypeProvider>().patch(
    `${API_ROUTES.notifications}/:id`,
    {
      onRequest: [deps.authenticator.requireUser, requireJson],
      schema: {
        operationId: "updateNotification",
        summary: t("api:routes.notificationsUpdate"),
        description: t("api:descriptions.notificationsUpdate"),
        tags: [t("api:tags.notifications")],
        security: OPERATOR_SECURITY,
        params: idParams,
        body: updateNotificationRequestSchema,
        response: answers({ 200: notificationResponseSchema }),
      },
    },
    async (request) => {
      const notification = await deps.engine.getNotification(Number(request.params.id));
      if (notification === undefined) throw apiError("notification_not_found");
      if (notification.status !== "scheduled") throw apiError("send_not_scheduled");
      const asked = merge(await requestOf(deps, notification), request.body);
      checkExempt(request.principal!, asked.exempt); // gates
      const input = await toSendInput(deps.publishDeps, asked, deps.now());
      const edited = await deps.engine.rescheduleNotification(notification.id, input).catch(toApiFailure);
      request.log.info({ send: edited.id, sendAt: edited.sendAt }, "scheduled send edited");
      return { notification: presentNotification(edited) };
    },
  );
}

/** The stored send as the create request that would make it again. */
async function requestOf(deps: RescheduleRouteDeps, notification: Notification): Promise<PublishRequest> {
  return {
    title: notification.title,
    ...(notification.body === null ? {} : { body: notification.body }),
    ...(notification.url === null ? {} : { url: notification.url }),
    ...(notification.icon === null ? {} : { icon: notification.icon }),
    ...(notification.image === null ? {} : { image: notification.image }),
    urgency: NOTIFICATION_URGENCIES.find((u) => u === notification.urgency) ?? "normal",
    ttl: notification.ttlSeconds,
    audience: await audienceOf(deps, notification),
    category: notification.category,
    ...(notification.collapseKey === null ? {} : { collapseKey: notification.collapseKey }),
    ...(notification.sendAt === null ? {} : { sendAt: new Date(notification.sendAt).toISOString() }),
    ...(notification.badge === null ? {} : { badge: notification.badge }),
    ...(notification.actions.length === 0 ? {} : { actions: notification.actions.map(({ label, url }) => ({ label, url })) }),
    ...(notification.renotify ? { renotify: true } : {}),
    ...(notification.requireInteraction ? { requireInteraction: true } : {}),
    ...(notification.silent ? { silent: true } : {}),
    ...(notification.appBadge === null ? {} : { appBadge: notification.appBadge }),
    ...(notification.data === null ? {} : { data: notification.data }),
    ...(notification.exempt ? { exempt: true } : {}), // gates
    ...(notification.reengagement ? { reengagement: true } : {}),
  };
}

async function audienceOf(deps: RescheduleRouteDeps, notification: Notification): Promise<NotificationAudience> {
  const audience = notification.audience;
  const sites = audience.kind !== "endpoint" && audience.sites !== undefined && audience.sites.length > 0 ? { sites: audience.sites.map(String) } : {};
  switch (audience.kind) {
    case "endpoint":
      return { type: "endpoint", endpoint: audience.endpoint };
    case "channels":
      return { type: "channels", channels: [...(audience.slugs ?? [])], ...sites };
    case "people": {
      const people = await deps.notifications.peopleData(notification.id);
      return { type: "users", users: Array.from(people, ([id, data]) => (data === null ? id : { id, data: { ...data } })), ...sites };
    }
    case "segment":
      return audience.segmentId !== null
        ? { type: "segment", segment: String(audience.segmentId), ...sites }
        : { type: "segment", expression: (audience.tree ?? "") as Record<string, unknown> | string, tagKinds: audience.tagKinds, ...sites };
    default:
      return { type: "all", ...sites };
  }
}

/** The edit over the stored request: given fields replace, `null` or "" clears an optional one. */
function merge(stored: PublishRequest, edit: UpdateNotificationRequest): PublishRequest {
  const merged: { -readonly [K in keyof PublishRequest]: PublishRequest[K] } = { ...stored };
  if (edit.title !== undefined) merged.title = edit.title;
  for (const field of ["body", "url", "icon", "image", "collapseKey", "badge"] as const) {
    const value = edit[field];
    if (value === undefined) continue;
    merged[field] = value === null || value === "" ? undefined : value;
  }
  if (edit.urgency !== undefined) merged.urgency = edit.urgency;
  if (edit.ttl !== undefined) merged.ttl = edit.ttl;
  if (edit.audience !== undefined) merged.audience = edit.audience as NotificationAudience;
  if (edit.category !== undefined) merged.category = edit.category;
  if (edit.sendAt !== undefined) merged.sendAt = edit.sendAt;
  if (edit.actions !== undefined) merged.actions = edit.actions ?? undefined;
  for (const flag of ["renotify", "requireInteraction", "silent"] as const) if (edit[flag] !== undefined) merged[flag] = edit[flag];
  if (edit.appBadge !== undefined) merged.appBadge = edit.appBadge ?? undefined;
  // `data: null` clears it; absent leaves it.
  if (edit.data !== undefined) merged.data = edit.data ?? undefined;
  for (const flag of ["exempt", "reengagement"] as const) if (edit[flag] !== undefined) merged[flag] = edit[flag]; // gates
  return merged;
}
