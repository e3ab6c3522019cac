import { z } from "zod";
import { audienceSchema, createNotificationRequestSchema } from "./notifications.js";
import { clearable } from "./text.js";

const fields = createNotificationRequestSchema.shape;

/**
 * PATCH /notifications/:id: edit or reschedule a send while it is `scheduled`. The fields given
 * replace the send's (the audience as a whole); the result is checked exactly as POST
 * /notifications checks a new send. `sendAt` not in the future sends it at the scheduler's next
 * look. 409 `send_not_scheduled` once it started, finished or was cancelled.
 */
export const updateNotificationRequestSchema = z.strictObject({
  title: fields.title.optional(),
  body: clearable(fields.body.unwrap()),
  url: clearable(fields.url.unwrap()),
  icon: clearable(fields.icon.unwrap()),
  image: clearable(fields.image.unwrap()),
  urgency: fields.urgency.unwrap().optional(),
  ttl: fields.ttl.unwrap().optional(),
  audience: audienceSchema.optional(),
  category: fields.category.unwrap().optional(),
  collapseKey: clearable(fields.collapseKey.unwrap()),
  sendAt: fields.sendAt,
  /** `null` or `[]` removes the buttons. */
  actions: fields.actions.unwrap().nullable().optional(),
  renotify: fields.renotify,
  requireInteraction: fields.requireInteraction,
  silent: fields.silent,
  badge: clearable(fields.badge.unwrap()),
  /** `null` removes it. */
  appBadge: fields.appBadge.unwrap().nullable().optional(),
  /** `null` removes it. */
  data: fields.data,
  /** gates: admin only (403 `exempt_admin_only` otherwise). */
  exempt: fields.exempt,
  reengagement: fields.reengagement,
});
export type UpdateNotificationRequest = z.input<typeof updateNotificationRequestSchema>;
