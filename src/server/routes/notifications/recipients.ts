import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { recipientsQuerySchema, recipientsResponseSchema } from "../../../shared/api/recipients.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import type { NotificationsRepository } from "../../../store/notifications-repository.js";
import type { RecipientsRepository } from "../../../store/recipients-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY } from "../../openapi.js";
import { presentRecipient } from "../../presenters/recipient.js";
import { answers } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";

export interface RecipientRoutesDeps {
  readonly recipients: RecipientsRepository;
  readonly notifications: Pick<NotificationsRepository, "findById">;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  /** SINO_PUBLIC_URL: the built-in site's origin. */
  readonly publicUrl: string;
}

const idParams = idParamsOf("notification_not_found");

/** What became of each push of a send, for any signed-in operator or token. */
export function registerRecipientRoutes(app: FastifyInstance, deps: RecipientRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const publicOrigin = new URL(deps.publicUrl).origin;

  routes.get(
    `${API_ROUTES.notifications}/:id/recipients`,
    {
      onRequest: deps.authenticator.requireUser,
      schema: {
        operationId: "listNotificationRecipients",
        summary: t("api:routes.notificationsRecipients"),
        tags: [t("api:tags.notifications")],
        security: OPERATOR_SECURITY,
        params: idParams,
        querystring: recipientsQuerySchema,
        response: answers({ 200: recipientsResponseSchema }),
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      if ((await deps.notifications.findById(id)) === undefined) throw apiError("notification_not_found");
      const { outcome, after, limit } = request.query;
      // One more than asked: whether a next page exists without a count over a large send.
      const rows = await deps.recipients.listForNotification(id, {
        ...(outcome === undefined ? {} : { outcome }),
        ...(after === undefined ? {} : { after: Number(after) }),
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const next = rows.length > limit ? String(page[page.length - 1]!.subscriptionId) : null;
      return { recipients: page.map((r) => presentRecipient(r, publicOrigin)), next };
    },
  );
}
