/** What the service worker passes to `showNotification`, built from a push payload. */
export interface NotificationContent {
  title: string;
  options: NotificationOptions & { image?: string };
}

/** The payload Sino's sender encrypts into each push: JSON, every field but title optional. */
export interface PushPayload {
  title: string;
  body?: string;
  icon?: string;
  image?: string;
  badge?: string;
  tag?: string;
  url?: string;
  /** The notification's id: the worker reports shown/clicked/closed for it. */
  id?: string;
  data?: unknown;
}

/** What the notification carries for the click handler and the event reports. */
export interface NotificationData {
  url: string | null;
  data?: unknown;
  /** Present when the payload named its notification. */
  notificationId?: string;
}

export interface ContentTexts {
  defaultTitle: string;
  fallbackBody: string;
}

/** Browsers cut long texts anyway; bounding them keeps a hostile payload from bloating the tray. */
const MAX_TITLE = 250;
const MAX_BODY = 1000;

/**
 * Always returns something to show. A push that shows nothing is a "silent push": Chrome then
 * shows its own "site updated in the background" notice and Safari/Firefox revoke the
 * subscription, so an empty, non-JSON or malformed payload still becomes a notification.
 */
export function buildNotification(payloadText: string | null, texts: ContentTexts): NotificationContent {
  const payload = parsePayload(payloadText);
  if (!payload) {
    const plain = payloadText?.trim();
    return {
      title: texts.defaultTitle,
      options: { body: plain ? truncate(plain, MAX_BODY) : texts.fallbackBody, data: { url: null } satisfies NotificationData },
    };
  }
  const options: NotificationContent["options"] = {
    body: payload.body !== undefined ? truncate(payload.body, MAX_BODY) : "",
    data: { url: payload.url ?? null, data: payload.data } satisfies NotificationData,
  };
  if (payload.id !== undefined) (options.data as NotificationData).notificationId = payload.id;
  if (payload.icon) options.icon = payload.icon;
  if (payload.image) options.image = payload.image;
  if (payload.badge) options.badge = payload.badge;
  if (payload.tag) {
    options.tag = payload.tag;
    // A notification replacing one with the same tag would otherwise arrive silently.
    (options as { renotify?: boolean }).renotify = true;
  }
  return { title: truncate(payload.title, MAX_TITLE) || texts.defaultTitle, options };
}

function parsePayload(text: string | null): PushPayload | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const str = (key: string): string | undefined => (typeof record[key] === "string" ? (record[key] as string) : undefined);
  const title = str("title");
  if (title === undefined && str("body") === undefined) return null;
  const payload: PushPayload = { title: title ?? "" };
  for (const key of ["body", "icon", "image", "badge", "tag", "url"] as const) {
    const v = str(key);
    if (v !== undefined) payload[key] = v;
  }
  if ("data" in record) payload.data = record.data;
  // Ids are strings in the API; a number is accepted so a sender that serialised one still counts.
  const id = record.id;
  if ((typeof id === "string" && id !== "") || (typeof id === "number" && Number.isSafeInteger(id))) payload.id = String(id);
  return payload;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
