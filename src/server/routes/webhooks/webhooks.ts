import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { newWebhookSecret } from "../../../delivery/webhooks/sign.js";
import { checkWebhookUrl, type ResolveHost, type WebhookUrlPolicy } from "../../../delivery/webhooks/url-policy.js";
import { API_ROUTES } from "../../../shared/api/routes.js";
import {
  MAX_WEBHOOKS,
  WEBHOOK_MESSAGES_PAGE_SIZE,
  createWebhookRequestSchema,
  updateWebhookRequestSchema,
  webhookMessageResponseSchema,
  webhookMessagesQuerySchema,
  webhookMessagesResponseSchema,
  webhookResponseSchema,
  webhookSecretResponseSchema,
  webhooksResponseSchema,
} from "../../../shared/api/webhooks.js";
import type { WebhooksRepository } from "../../../store/webhooks-repository.js";
import type { Authenticator } from "../../auth/authenticator.js";
import { apiError } from "../../errors.js";
import type { Translator } from "../../i18n.js";
import { OPERATOR_SECURITY, noContentSchema } from "../../openapi.js";
import { presentWebhook, presentWebhookMessage } from "../../presenters/webhook.js";
import { requireJson } from "../../require-json.js";
import { answers } from "../route-docs.js";
import { idParamsOf } from "../../../shared/api/ids.js";
import { changedFields } from "../changed-fields.js";

export interface WebhookRoutesDeps {
  readonly webhooks: WebhooksRepository;
  readonly authenticator: Authenticator;
  readonly translator: Translator;
  readonly now: () => number;
  readonly urlPolicy: WebhookUrlPolicy;
  /** Tests inject one; DNS otherwise. */
  readonly resolveHost?: ResolveHost;
  /** Looks for due messages at once when this process delivers them (after a test or resend). */
  readonly wake?: () => void;
}

const webhookParams = idParamsOf("webhook_not_found");
const messageParams = webhookParams.extend({ messageId: z.string().regex(/^msg_[A-Za-z0-9_-]{1,64}$/, { error: "webhook_message_not_found" }) });

/** Outbound webhooks: admins only (a signed-in admin or an admin token). */
export function registerWebhookRoutes(app: FastifyInstance, deps: WebhookRoutesDeps): void {
  const { t } = deps.translator;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const requireAdmin = deps.authenticator.requireAdmin;
  const doc = (summary: string) => ({ summary: t(`api:routes.${summary}`), tags: [t("api:tags.webhooks")], security: OPERATOR_SECURITY });
  const wake = () => deps.wake?.();

  async function allowedUrl(input: string): Promise<string> {
    const check = await checkWebhookUrl(input, deps.urlPolicy, deps.resolveHost);
    if (!check.ok) throw apiError(check.code, "url");
    return check.url;
  }

  async function found(id: string) {
    const webhook = await deps.webhooks.findById(Number(id));
    if (webhook === undefined) throw apiError("webhook_not_found");
    return webhook;
  }

  routes.get(
    API_ROUTES.webhooks,
    { onRequest: requireAdmin, schema: { operationId: "listWebhooks", ...doc("webhooksList"), response: answers({ 200: webhooksResponseSchema }) } },
    async () => ({ webhooks: (await deps.webhooks.list()).map(presentWebhook) }),
  );

  routes.post(
    API_ROUTES.webhooks,
    {
      onRequest: [requireAdmin, requireJson],
      schema: {
        operationId: "createWebhook",
        ...doc("webhooksCreate"),
        description: t("api:descriptions.webhooksCreate"),
        body: createWebhookRequestSchema,
        response: answers({ 201: webhookSecretResponseSchema }),
      },
    },
    async (request, reply) => {
      const url = await allowedUrl(request.body.url);
      const secret = newWebhookSecret();
      const webhook = await deps.webhooks.create(
        { url, description: request.body.description ?? null, events: request.body.events, secret },
        deps.now(),
        MAX_WEBHOOKS,
      );
      if (webhook === undefined) throw apiError("too_many_webhooks");
      request.log.info({ webhookId: webhook.id, events: webhook.events }, "webhook created");
      return reply.code(201).header("cache-control", "no-store").send({ webhook: presentWebhook(webhook), secret });
    },
  );

  routes.get(
    `${API_ROUTES.webhooks}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "getWebhook", ...doc("webhooksGet"), params: webhookParams, response: answers({ 200: webhookResponseSchema }) } },
    async (request) => ({ webhook: presentWebhook(await found(request.params.id)) }),
  );

  routes.patch(
    `${API_ROUTES.webhooks}/:id`,
    {
      onRequest: [requireAdmin, requireJson],
      schema: { operationId: "updateWebhook", ...doc("webhooksUpdate"), params: webhookParams, body: updateWebhookRequestSchema, response: answers({ 200: webhookResponseSchema }) },
    },
    async (request) => {
      const { url, description, events, enabled } = request.body;
      const webhook = await deps.webhooks.update(
        Number(request.params.id),
        changedFields({ url: url === undefined ? undefined : await allowedUrl(url), description, events, enabled }),
        deps.now(),
      );
      if (webhook === undefined) throw apiError("webhook_not_found");
      request.log.info({ webhookId: webhook.id, enabled: webhook.enabled }, "webhook updated");
      if (webhook.enabled) wake();
      return { webhook: presentWebhook(webhook) };
    },
  );

  routes.delete(
    `${API_ROUTES.webhooks}/:id`,
    { onRequest: requireAdmin, schema: { operationId: "deleteWebhook", ...doc("webhooksDelete"), params: webhookParams, response: answers({ 204: noContentSchema }) } },
    async (request, reply) => {
      if (!(await deps.webhooks.remove(Number(request.params.id)))) throw apiError("webhook_not_found");
      request.log.info({ webhookId: Number(request.params.id) }, "webhook deleted");
      return reply.code(204).send(null);
    },
  );

  routes.post(
    `${API_ROUTES.webhooks}/:id/secret`,
    { onRequest: requireAdmin, schema: { operationId: "rotateWebhookSecret", ...doc("webhooksSecret"), params: webhookParams, response: answers({ 200: webhookSecretResponseSchema }) } },
    async (request, reply) => {
      const secret = newWebhookSecret();
      const webhook = await deps.webhooks.rotateSecret(Number(request.params.id), secret, deps.now());
      if (webhook === undefined) throw apiError("webhook_not_found");
      request.log.info({ webhookId: webhook.id }, "webhook secret rotated");
      return reply.header("cache-control", "no-store").send({ webhook: presentWebhook(webhook), secret });
    },
  );

  routes.get(
    `${API_ROUTES.webhooks}/:id/messages`,
    {
      onRequest: requireAdmin,
      schema: { operationId: "listWebhookMessages", ...doc("webhooksMessages"), params: webhookParams, querystring: webhookMessagesQuerySchema, response: answers({ 200: webhookMessagesResponseSchema }) },
    },
    async (request) => {
      const webhook = await found(request.params.id);
      const { page } = request.query;
      const { messages, total } = await deps.webhooks.listMessages(webhook.id, page, WEBHOOK_MESSAGES_PAGE_SIZE);
      return { messages: messages.map(presentWebhookMessage), total, page, pageSize: WEBHOOK_MESSAGES_PAGE_SIZE };
    },
  );

  routes.post(
    `${API_ROUTES.webhooks}/:id/messages/:messageId/resend`,
    { onRequest: requireAdmin, schema: { operationId: "resendWebhookMessage", ...doc("webhooksResend"), params: messageParams, response: answers({ 202: webhookMessageResponseSchema }) } },
    async (request, reply) => {
      const webhook = await found(request.params.id);
      const message = await deps.webhooks.resend(webhook.id, request.params.messageId, deps.now());
      if (message === undefined) throw apiError("webhook_message_not_found");
      request.log.info({ webhookId: webhook.id, messageId: message.messageId }, "webhook message resent");
      wake();
      return reply.code(202).send({ message: presentWebhookMessage(message) });
    },
  );

  routes.post(
    `${API_ROUTES.webhooks}/:id/test`,
    { onRequest: requireAdmin, schema: { operationId: "testWebhook", ...doc("webhooksTest"), params: webhookParams, response: answers({ 202: webhookMessageResponseSchema }) } },
    async (request, reply) => {
      const webhook = await found(request.params.id);
      const message = await deps.webhooks.enqueueOne(webhook.id, "webhook.test", { webhookId: String(webhook.id) }, deps.now());
      wake();
      return reply.code(202).send({ message: presentWebhookMessage(message) });
    },
  );
}
