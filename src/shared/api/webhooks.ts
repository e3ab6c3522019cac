import { z } from "zod";
import { text } from "./text.js";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./webhook-events.js";

/**
 * Outbound webhooks: https URLs an admin registers to receive signed events (Standard Webhooks).
 * The signing secret (`whsec_…`) is shown only in the answers that create or rotate it.
 */
export const MAX_WEBHOOKS = 20;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_DESCRIPTION_MAX_LENGTH = 200;
export const WEBHOOK_MESSAGES_PAGE_SIZE = 50;

/** The events an admin may subscribe a webhook to: all but the test ping, which goes to one webhook on demand. */
export const WEBHOOK_SUBSCRIBABLE_EVENTS = WEBHOOK_EVENT_TYPES.filter((type) => type !== "webhook.test") as readonly WebhookEventType[];

const eventsSchema = z
  .array(z.string(), { error: "webhook_events_invalid" })
  .min(1, { error: "webhook_events_invalid" })
  .max(WEBHOOK_SUBSCRIBABLE_EVENTS.length * 2, { error: "webhook_events_invalid" })
  .refine((events) => events.every((e) => (WEBHOOK_SUBSCRIBABLE_EVENTS as readonly string[]).includes(e)), { error: "webhook_events_invalid" })
  .transform((events) => WEBHOOK_SUBSCRIBABLE_EVENTS.filter((e) => events.includes(e)));

const urlSchema = text({ error: "webhook_url_invalid" }).trim().min(1, { error: "webhook_url_invalid" }).max(WEBHOOK_URL_MAX_LENGTH, { error: "webhook_url_invalid" });
const descriptionSchema = text({ error: "validation_failed" })
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX_LENGTH, { error: "validation_failed" })
  .transform((d) => (d === "" ? null : d));

export const webhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string().nullable(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;

/** GET /webhooks (admin), oldest first. */
export const webhooksResponseSchema = z.object({ webhooks: z.array(webhookSchema) });
export type WebhooksResponse = z.infer<typeof webhooksResponseSchema>;

/** GET, PATCH /webhooks/:id. */
export const webhookResponseSchema = z.object({ webhook: webhookSchema });
export type WebhookResponse = z.infer<typeof webhookResponseSchema>;

/** POST /webhooks (admin). */
export const createWebhookRequestSchema = z.strictObject({
  url: urlSchema,
  description: descriptionSchema.optional(),
  events: eventsSchema,
});
export type CreateWebhookRequest = z.input<typeof createWebhookRequestSchema>;

/** PATCH /webhooks/:id (admin): any of the fields. */
export const updateWebhookRequestSchema = z.strictObject({
  url: urlSchema.optional(),
  description: descriptionSchema.nullable().optional(),
  events: eventsSchema.optional(),
  enabled: z.boolean().optional(),
});
export type UpdateWebhookRequest = z.input<typeof updateWebhookRequestSchema>;

/** 201 to POST /webhooks and 200 to POST /webhooks/:id/secret: the secret is in this answer only. */
export const webhookSecretResponseSchema = z.object({ webhook: webhookSchema, secret: z.string() });
export type WebhookSecretResponse = z.infer<typeof webhookSecretResponseSchema>;

export const WEBHOOK_MESSAGE_STATUSES = ["pending", "delivered", "failed"] as const;

/** One event queued for one webhook, with its delivery state. */
export const webhookMessageSchema = z.object({
  /** The `webhook-id` header, the same on every attempt. */
  id: z.string(),
  eventType: z.string(),
  status: z.enum(WEBHOOK_MESSAGE_STATUSES),
  attempts: z.number(),
  /** The receiver's last HTTP status, null before the first answer (or after a network error). */
  lastStatus: z.number().nullable(),
  lastError: z.string().nullable(),
  /** When the next attempt is due (pending only). */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
});
export type WebhookMessage = z.infer<typeof webhookMessageSchema>;

/** GET /webhooks/:id/messages?page= (admin), newest first. */
export const webhookMessagesQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export const webhookMessagesResponseSchema = z.object({
  messages: z.array(webhookMessageSchema),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type WebhookMessagesResponse = z.infer<typeof webhookMessagesResponseSchema>;

/** POST /webhooks/:id/messages/:messageId/resend and POST /webhooks/:id/test (202). */
export const webhookMessageResponseSchema = z.object({ message: webhookMessageSchema });
export type WebhookMessageResponse = z.infer<typeof webhookMessageResponseSchema>;
