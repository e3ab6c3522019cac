import type { CreateNotificationRequest } from "../../../shared/api/notifications.js";
import type { UpdateNotificationRequest } from "../../../shared/api/notification-edit.js";

/** The ids typed one per line, each once; blank lines are ignored and each line's edges trimmed. */
export function peopleOf(text: string): string[] {
  return [...new Set(text.split("\n").map((line) => line.trim()).filter((line) => line !== ""))];
}

/**
 * The edit of a scheduled send as PATCH takes it: the whole form (cleared fields as null), "now"
 * as this moment, and a people send's audience left out when no new ids were typed (the server
 * keeps its people and their values).
 */
export function editRequestOf(request: CreateNotificationRequest, options: { now: number; keepPeople: boolean }): UpdateNotificationRequest {
  const { audience, ...rest } = request;
  return {
    ...rest,
    body: request.body ?? null,
    url: request.url ?? null,
    icon: request.icon ?? null,
    image: request.image ?? null,
    collapseKey: request.collapseKey ?? null,
    actions: request.actions ?? null,
    renotify: request.renotify === true,
    requireInteraction: request.requireInteraction === true,
    silent: request.silent === true,
    badge: request.badge ?? null,
    appBadge: request.appBadge ?? null,
    data: request.data ?? null,
    sendAt: request.sendAt ?? new Date(options.now).toISOString(),
    ...(options.keepPeople || audience === undefined ? {} : { audience }),
  };
}

