import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type { z } from "zod";
import { notificationEventRequestSchema } from "../../../shared/api/events.js";
import { API_PREFIX, API_ROUTES } from "../../../shared/api/routes.js";
import { clickRate, type NotificationEventsRepository } from "../../../store/notification-events-repository.js";
import type { NotificationsRepository } from "../../../store/notifications-repository.js";
import type { RetryCausesRepository } from "../../../store/retry-causes-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { CSV_CONTENT_TYPE, UTF8_BOM, toCsv } from "../../csv.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, noContentSchema, textResponse } from "../../openapi.js";
import { requireJson } from "../../require-json.js";
import { checkAuth } from "../../../push/key-policy.js";
import type { Ingestion } from "../../ingestion/ingestion.js";
import { answers } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface EventRoutesDeps {
  readonly events: NotificationEventsRepository;
  /** Where reports are written (group commit). */
  readonly ingestion: Pick<Ingestion, "events">;
  readonly notifications: Pick<NotificationsRepository, "findById">;
  readonly retryCauses: RetryCausesRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
}

/** A report is a few short strings; the endpoint is the longest. */
const EVENT_BODY_LIMIT = 4096;
const idParams = idParamsOf("notification_not_found");

export function registerEventRoutes(app: FastifyInstance, deps: EventRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();

  // The service worker's report. Proof of possession (endpoint + auth) keeps anyone else from
  // inflating a send's numbers; nothing but the subscription is stored with it.
  routes.post(
    API_ROUTES.events,
    {
      bodyLimit: EVENT_BODY_LIMIT,
      onRequest: requireJson,
      schema: {
        operationId: "reportNotificationEvent",
        security: [],
        summary: t("api:routes.events"),
        tags: [t("api:tags.public")],
        body: notificationEventRequestSchema,
        response: answers({ 204: noContentSchema }),
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!/^\d{1,15}$/.test(body.notificationId)) throw apiError("notification_not_found", "notificationId");
      // An action button is part of a click, of nothing else.
      if (body.action !== undefined && body.type !== "clicked") throw apiError("validation_failed", "action");
      const auth = checkAuth(body.auth);
      if (!auth.ok) throw apiError(auth.code, "auth");
      // Validated above, written with the reports around it in one transaction (group commit);
      // answered only once that transaction committed.
      const result = await deps.ingestion.events.submit({
        event: { notificationId: Number(body.notificationId), type: body.type, endpoint: body.endpoint, auth: auth.value, action: body.action },
        now: deps.now(),
      });
      if (result === "subscription_not_found") throw apiError("subscription_not_found", "endpoint");
      if (result === "auth_mismatch") throw apiError("subscription_auth_mismatch", "auth");
      if (result === "notification_not_found") throw apiError("notification_not_found", "notificationId");
      return reply.code(204).send(null);
    },
  );

  // A send's results as CSV, for a spreadsheet.
  // Plain (not zod-typed) route: the answer is text, not a JSON schema; params still validate.
  app.get<{ Params: z.infer<typeof idParams> }>(
    `${API_PREFIX}/notifications/:id/results.csv`,
    {
      onRequest: deps.authenticator.requireUser,
      schema: {
        operationId: "exportNotificationResults",
        summary: t("api:routes.notificationResultsCsv"),
        tags: [t("api:tags.stats")],
        security: OPERATOR_SECURITY,
        params: idParams,
        produces: ["text/csv"],
        response: answers({ 200: textResponse("text/csv", t("api:responses.csv")) }),
      },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const notification = await deps.notifications.findById(id);
      if (notification === undefined) throw apiError("notification_not_found");
      const [events, retries] = await Promise.all([deps.events.countsFor(id), deps.retryCauses.forNotification(id)]);
      const rate = clickRate(events.clicked, notification.counts.accepted);
      const h = (key: string) => t(`api:csv.${key}`);
      // Why pushes were retried, one "host: reason (HTTP 503), 12 novas tentativas" per cause.
      const causes = retries.causes
        .map((cause) =>
          t("notifications:retries.csvCause", {
            host: cause.host,
            reason: t(`notifications:retries.reasons.${cause.reason}`, { defaultValue: cause.reason }),
            status: cause.status === 0 ? t("notifications:retries.noAnswer") : t("notifications:retries.status", { status: cause.status }),
            count: cause.pushes,
          }),
        )
        .join("; ");
      const csv = toCsv([
        [
          h("send"),
          h("title"),
          h("queued"),
          h("accepted"),
          h("shown"),
          h("clicked"),
          h("clickRate"),
          h("closed"),
          h("failed"),
          h("removed"),
          h("status"),
          h("retrying"),
          h("nextAttempt"),
          h("retryCauses"),
          h("notice"),
          h("clickedOpen"),
          h("clickedAction1"),
          h("clickedAction2"),
        ],
        [
          notification.id,
          notification.title,
          notification.counts.queued,
          notification.counts.accepted,
          events.shown,
          events.clicked,
          rate === null ? null : rate.toFixed(4),
          events.closed,
          notification.counts.failed,
          notification.counts.removed,
          t(`notifications:status.${notification.status}`),
          notification.counts.retrying,
          retries.nextAttemptAt === null ? null : new Date(retries.nextAttemptAt).toISOString(),
          causes === "" ? null : causes,
          t(`notifications:notice.${notification.notice}`),
          events.clickedByAction.open,
          events.clickedByAction["1"],
          events.clickedByAction["2"],
        ],
      ]);
      return reply
        .header("content-type", CSV_CONTENT_TYPE)
        .header("content-disposition", `attachment; filename="sino-envio-${id}.csv"`)
        .send(UTF8_BOM + csv);
    },
  );
}
