import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { notificationResponseSchema, notificationRetriesSchema, setNoticeRequestSchema, type NoticeVisibility } from "../../../shared/api/notifications.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import { apiError } from "../../errors.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { presentNotification } from "../../presenters/notification.js";
import { presentRetries } from "../../presenters/retry-causes.js";
import { requireJson } from "../../require-json.js";
import type { NotificationRoutesDeps } from "./notifications-deps.js";
import { answers } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

const idParams = idParamsOf("notification_not_found");

/**
 * A past send on the public Avisos page: shown again, kept off (hidden) or taken off for good
 * (removed); and why its pushes are being retried. Any signed-in operator or token, as for
 * cancelling: whoever may send may take a test send back off the public page.
 */
export function registerSendNoticeRoutes(app: FastifyInstance, deps: NotificationRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const requireUser = deps.authenticator.requireUser;
  const notifications = deps.repositories.notifications;
  const doc = (summary: string, operationId: string) => ({ summary: t(summary), operationId, tags: [t("api:tags.notifications")], security: OPERATOR_SECURITY });
  const noticePath = `${API_ROUTES.notifications}/:id/notice`;

  async function change(id: string, notice: NoticeVisibility) {
    const notification = await notifications.findById(Number(id));
    if (notification === undefined) throw apiError("notification_not_found");
    if (notification.audience.kind === "endpoint") throw apiError("notice_not_public");
    const changed = await notifications.setNotice(notification.id, notice, deps.now());
    if (changed === undefined) throw apiError("notification_not_found");
    if (changed === "notice_removed") throw apiError("notice_removed", "notice");
    return changed;
  }

  routes.patch(
    noticePath,
    {
      onRequest: [requireUser, requireJson],
      schema: {
        ...doc("api:routes.notificationsNoticeSet", "setNotificationNotice"),
        description: t("api:descriptions.notificationsNoticeSet"),
        params: idParams,
        body: setNoticeRequestSchema,
        response: answers({ 200: notificationResponseSchema }),
      },
    },
    async (request) => {
      const notification = await change(request.params.id, request.body.notice);
      request.log.info({ send: notification.id, notice: notification.notice }, "send's notice changed");
      return { notification: presentNotification(notification) };
    },
  );

  routes.delete(
    noticePath,
    {
      onRequest: requireUser,
      schema: {
        ...doc("api:routes.notificationsNoticeRemove", "removeNotificationNotice"),
        description: t("api:descriptions.notificationsNoticeRemove"),
        params: idParams,
        response: answers({ 200: notificationResponseSchema }),
      },
    },
    async (request) => {
      const notification = await change(request.params.id, "removed");
      request.log.info({ send: notification.id }, "send removed from the notices");
      return { notification: presentNotification(notification) };
    },
  );

  routes.get(
    `${API_ROUTES.notifications}/:id/retries`,
    {
      onRequest: requireUser,
      schema: {
        ...doc("api:routes.notificationsRetries", "getNotificationRetries"),
        description: t("api:descriptions.notificationsRetries"),
        params: idParams,
        response: answers({ 200: notificationRetriesSchema }),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      if ((await notifications.findById(id)) === undefined) throw apiError("notification_not_found");
      return presentRetries(await deps.repositories.retryCauses.forNotification(id));
    },
  );
}
