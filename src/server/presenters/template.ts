import { NOTIFICATION_URGENCIES, type NotificationUrgency } from "../../shared/api/notifications.js";
import type { Template } from "../../shared/api/templates.js";
import type { Template as StoredTemplate } from "../../store/templates-repository.js";

const iso = (ms: number) => new Date(ms).toISOString();

function urgencyOf(value: string): NotificationUrgency {
  return NOTIFICATION_URGENCIES.find((u) => u === value) ?? "normal";
}

export function presentTemplate(template: StoredTemplate): Template {
  return {
    id: String(template.id),
    name: template.name,
    title: template.title,
    body: template.body,
    url: template.url,
    icon: template.icon,
    image: template.image,
    urgency: urgencyOf(template.urgency),
    ttl: template.ttlSeconds,
    collapseKey: template.collapseKey,
    audience: template.audience,
    actions: template.actions.map(({ label, url }) => ({ label, url })),
    renotify: template.renotify,
    requireInteraction: template.requireInteraction,
    silent: template.silent,
    badge: template.badge,
    appBadge: template.appBadge,
    data: template.data,
    createdAt: iso(template.createdAt),
    updatedAt: iso(template.updatedAt),
  };
}
