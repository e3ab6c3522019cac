import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import type { DeliveryEngine } from "../../../delivery/engine.js";
import { NOTIFICATION_URGENCIES, notificationResponseSchema, type NotificationAudience } from "../../../shared/api/notifications.js";
import { updateNotificationRequestSchema, type UpdateNotificationRequest } from "../../../shared/api/notification-edit.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { Notification, NotificationsRepository } from "../../../store/notifications-repository.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, apiErrorSchema } from "../../openapi.js";
import { presentNotification } from "../../presenters/notification.js";
import { requireJson } from "../../require-json.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { toApiFailure, toSendInput, type PublishDeps, type PublishRequest } from "./publish.js";
import { checkExempt } from "./delivery-gates.js";

export interface RescheduleRouteDeps {
  readonly engine: Pick<DeliveryEngine, "getNotification" | "rescheduleNotification">;
  readonly notifications: Pick<NotificationsRepository, "peopleData">;
  readonly publishDeps: PublishDeps;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

const idParams = z.object({ id: z.string().regex(/^\d{1,15}$/, { error: "notification_not_found" }) });

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
        response: { 200: notificationResponseSchema, "4xx": apiErrorSchema },
      },
    },
    async (request) => {
      const send = await deps.engine.getNotification(Number(request.params.id));
      if (send === undefined) throw apiError("notification_not_found");
      if (send.status !== "scheduled") throw apiError("send_not_scheduled");
      const asked = merge(await requestOf(deps, send), request.body);
      checkExempt(request.principal!, asked.exempt); // gates
      const input = await toSendInput(deps.publishDeps, asked, deps.now());
      const edited = await deps.engine.rescheduleNotification(send.id, input).catch(toApiFailure);
      request.log.info({ send: edited.id, sendAt: edited.sendAt }, "scheduled send edited");
      return { notification: presentNotification(edited) };
    },
  );
}

/** The stored send as the create request that would make it again. */
async function requestOf(deps: RescheduleRouteDeps, send: Notification): Promise<PublishRequest> {
  return {
    title: send.title,
    ...(send.body === null ? {} : { body: send.body }),
    ...(send.url === null ? {} : { url: send.url }),
    ...(send.icon === null ? {} : { icon: send.icon }),
    ...(send.image === null ? {} : { image: send.image }),
    urgency: NOTIFICATION_URGENCIES.find((u) => u === send.urgency) ?? "normal",
    ttl: send.ttlSeconds,
    audience: await audienceOf(deps, send),
    category: send.category,
    ...(send.collapseKey === null ? {} : { collapseKey: send.collapseKey }),
    ...(send.sendAt === null ? {} : { sendAt: new Date(send.sendAt).toISOString() }),
    ...(send.badge === null ? {} : { badge: send.badge }),
    ...(send.actions.length === 0 ? {} : { actions: send.actions.map(({ label, url }) => ({ label, url })) }),
    ...(send.renotify ? { renotify: true } : {}),
    ...(send.requireInteraction ? { requireInteraction: true } : {}),
    ...(send.silent ? { silent: true } : {}),
    ...(send.appBadge === null ? {} : { appBadge: send.appBadge }),
    ...(send.data === null ? {} : { data: send.data }),
    ...(send.exempt ? { exempt: true } : {}), // gates
    ...(send.reengagement ? { reengagement: true } : {}),
  };
}

async function audienceOf(deps: RescheduleRouteDeps, send: Notification): Promise<NotificationAudience> {
  const audience = send.audience;
  const sites = audience.kind !== "endpoint" && audience.sites !== undefined && audience.sites.length > 0 ? { sites: audience.sites.map(String) } : {};
  switch (audience.kind) {
    case "endpoint":
      return { type: "endpoint", endpoint: audience.endpoint };
    case "channels":
      return { type: "channels", channels: [...(audience.slugs ?? [])], ...sites };
    case "people": {
      const people = await deps.notifications.peopleData(send.id);
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
