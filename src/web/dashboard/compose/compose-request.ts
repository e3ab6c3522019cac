/**
 * The body the compose page posts to POST /api/v1/notifications: a subset of the shared
 * `CreateNotificationRequest` (src/shared/api/notifications.ts), which the server validates.
 */

/** RFC 8030 §5.3 urgencies. */
export const URGENCIES = ["very-low", "low", "normal", "high"] as const;
export type Urgency = (typeof URGENCIES)[number];

/** TTL choices, in seconds (RFC 8030 §5.2). FCM keeps a message at most 4 weeks. */
export const TTL_CHOICES = [3_600, 6 * 3_600, 86_400, 3 * 86_400, 7 * 86_400, 28 * 86_400] as const;
export const DEFAULT_TTL = 86_400;

export type Audience = { type: "all" } | { type: "channels"; channels: string[] } | { type: "endpoint"; endpoint: string };

export interface NotificationRequest {
  title: string;
  body?: string;
  /** Opened on click: an https URL or a path on this site. */
  url?: string;
  icon?: string;
  image?: string;
  urgency: Urgency;
  ttl: number;
  audience: Audience;
  /** ISO 8601 instant; absent means now. */
  sendAt?: string;
}
