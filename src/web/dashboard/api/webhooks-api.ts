import { API_ROUTES, webhookMessagesPath, webhookPath, webhookResendPath, webhookTestPath } from "../../../shared/api/routes.js";
import type {
  CreateWebhookRequest,
  UpdateWebhookRequest,
  Webhook,
  WebhookMessage,
  WebhookMessagesResponse,
  WebhookSecretResponse,
  WebhooksResponse,
} from "../../../shared/api/webhooks.js";
import { createDashboardRequest, type DashboardRequestOptions } from "./dashboard-request.js";

/** Outbound webhooks (admin). */
export interface WebhooksApi {
  listWebhooks(): Promise<Webhook[]>;
  createWebhook(request: CreateWebhookRequest): Promise<WebhookSecretResponse>;
  updateWebhook(id: string, changes: UpdateWebhookRequest): Promise<Webhook>;
  deleteWebhook(id: string): Promise<void>;
  testWebhook(id: string): Promise<WebhookMessage>;
  listMessages(id: string, page: number): Promise<WebhookMessagesResponse>;
  resendMessage(id: string, messageId: string): Promise<WebhookMessage>;
}

/** Same origin, session cookie, errors as `DashboardApiError` (like the dashboard's main client). */
export function createWebhooksApi(options: DashboardRequestOptions = {}): WebhooksApi {
  const { json, request } = createDashboardRequest(options);
  return {
    async listWebhooks() {
      return (await json<WebhooksResponse>("GET", API_ROUTES.webhooks)).webhooks;
    },
    createWebhook: (body) => json<WebhookSecretResponse>("POST", API_ROUTES.webhooks, body),
    async updateWebhook(id, changes) {
      return (await json<{ webhook: Webhook }>("PATCH", webhookPath(id), changes)).webhook;
    },
    async deleteWebhook(id) {
      await request("DELETE", webhookPath(id));
    },
    async testWebhook(id) {
      return (await json<{ message: WebhookMessage }>("POST", webhookTestPath(id))).message;
    },
    listMessages: (id, page) => json<WebhookMessagesResponse>("GET", `${webhookMessagesPath(id)}?page=${page}`),
    async resendMessage(id, messageId) {
      return (await json<{ message: WebhookMessage }>("POST", webhookResendPath(id, messageId))).message;
    },
  };
}
