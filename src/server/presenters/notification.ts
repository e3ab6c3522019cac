import { NOTIFICATION_URGENCIES, type Notification, type NotificationUrgency, type PresentedAudience } from "../../shared/api/notifications.js";
import type { Notification as StoredNotification } from "../../store/notifications-repository.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function urgencyOf(value: string | null): NotificationUrgency {
  return NOTIFICATION_URGENCIES.find((u) => u === value) ?? "normal";
}

function audienceOf(send: StoredNotification): PresentedAudience {
  const audience = send.audience;
  const sites = audience.kind !== "endpoint" && audience.sites !== undefined && audience.sites.length > 0 ? { sites: audience.sites.map(String) } : {};
  if (audience.kind === "people") return { type: "users", users: audience.people, ...sites };
  if (audience.kind === "segment") {
    return { type: "segment", segment: audience.segmentId === null ? null : String(audience.segmentId), name: audience.name, expression: audience.text, ...sites };
  }
  if (audience.kind === "channels") return { type: "channels", channels: [...(audience.slugs ?? [])], ...sites };
  return audience.kind === "endpoint" ? { type: "endpoint" } : { type: "all", ...sites };
}

/** A notification as the API shows it: never its payload, tag internals or a target's endpoint. */
export function presentNotification(send: StoredNotification): Notification {
  return {
    id: String(send.id),
    title: send.title,
    body: send.body,
    url: send.url,
    icon: send.icon,
    image: send.image,
    urgency: urgencyOf(send.urgency),
    ttl: send.ttlSeconds,
    audience: audienceOf(send),
    category: send.category,
    collapseKey: send.collapseKey,
    status: send.status,
    sendAt: iso(send.sendAt),
    createdAt: new Date(send.createdAt).toISOString(),
    finishedAt: iso(send.finishedAt),
    counts: { ...send.counts },
    waitingUntil: iso(send.waitingUntil),
    notice: send.notice,
    actions: send.actions.map(({ label, url }) => ({ label, url })),
    renotify: send.renotify,
    requireInteraction: send.requireInteraction,
    silent: send.silent,
    badge: send.badge,
    appBadge: send.appBadge,
    data: send.data,
    exempt: send.exempt,
    reengagement: send.reengagement,
  };
}
