import { payloadBudget } from "../../../shared/api/notification-payload.js";
import type { PayloadBudget } from "../../../shared/api/notification-payload.js";
import { toNotificationRequest } from "./compose-form.js";
import type { ComposeValues } from "./compose-form.js";

/**
 * The push record the form's notification would need, as the server sizes it (`payloadBudget`:
 * the worse of the classic and the declarative form, with the longest id): exactly what goes out,
 * so fields the form would leave out (empty, or not yet valid) are not counted.
 */
export function composeBudget(values: ComposeValues, collapseKey: string, origin: string): PayloadBudget {
  const request = toNotificationRequest(values, { timeZone: "UTC", audience: { type: "all" }, collapseKey });
  return payloadBudget(
    {
      title: request.title,
      body: request.body,
      url: request.url,
      icon: request.icon,
      image: request.image,
      badge: request.badge,
      tag: request.collapseKey,
      renotify: request.renotify,
      requireInteraction: request.requireInteraction,
      silent: request.silent,
      actions: request.actions,
      appBadge: request.appBadge,
      data: request.data,
    },
    origin,
  );
}
