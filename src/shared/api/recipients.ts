import { z } from "zod";

/**
 * What became of each push of a send (GET /notifications/:id/recipients): one row per
 * subscription it went to, with the person it belonged to (if any) and what its service worker
 * reported. Never endpoints or keys.
 */
export const RECIPIENT_OUTCOMES = ["accepted", "retrying", "failed", "removed", "limited", "asleep", "waiting", "expired"] as const;
export type RecipientOutcome = (typeof RECIPIENT_OUTCOMES)[number];

export const RECIPIENTS_PAGE_SIZE = 100;
export const RECIPIENTS_MAX_PAGE_SIZE = 500;

/** A site as a recipient or a device names it; `origin` is null once the site was deleted. */
export const recipientSiteSchema = z.object({ id: z.string(), origin: z.string().nullable() });

export const recipientSchema = z.object({
  subscriptionId: z.string(),
  /** The host app's person id the subscription had when the push went out; null: anonymous. */
  userId: z.string().nullable(),
  site: recipientSiteSchema,
  outcome: z.enum(RECIPIENT_OUTCOMES),
  /** The classifier's reason for `failed` or `retrying` (`server_error`, `expired`, …); `gone` for `removed`; `window` for `waiting` (local-time). */
  reason: z.string().nullable(),
  attempts: z.number().int(),
  updatedAt: z.string(),
  shownAt: z.string().nullable(),
  clickedAt: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type Recipient = z.infer<typeof recipientSchema>;

/** GET /notifications/:id/recipients?outcome=&after=&limit= — keyset on the subscription id. */
export const recipientsQuerySchema = z.object({
  outcome: z.enum(RECIPIENT_OUTCOMES, { error: "validation_failed" }).optional(),
  /** The `next` of the previous page. */
  after: z.string().regex(/^\d{1,15}$/, { error: "validation_failed" }).optional(),
  limit: z.coerce.number().int().min(1).max(RECIPIENTS_MAX_PAGE_SIZE).default(RECIPIENTS_PAGE_SIZE),
});
export type RecipientsQuery = z.input<typeof recipientsQuerySchema>;

export const recipientsResponseSchema = z.object({
  recipients: z.array(recipientSchema),
  /** Pass as `after` for the next page; null on the last one. */
  next: z.string().nullable(),
});
export type RecipientsResponse = z.infer<typeof recipientsResponseSchema>;
