import { ACTION_IDS, DECLARATIVE_PUSH_MAGIC } from "../../shared/api/notification-payload.js";
import type { NotificationActionId } from "../messaging/click-message.js";

/** What the service worker passes to `showNotification`, built from a push payload. */
export interface NotificationContent {
  title: string;
  options: NotificationOptions & { image?: string; renotify?: boolean; actions?: NotificationAction[] };
  /** The app badge the push asks for (`navigator.setAppBadge`); absent when it asks for none. */
  appBadge?: number;
}

/** One action button of the notification, as `showNotification` takes it (Notifications API). */
export interface NotificationAction {
  action: NotificationActionId;
  title: string;
}

/** An action button as a payload names it: its id ("1" or "2"), its label and its link. */
export interface PayloadAction {
  action: NotificationActionId;
  title: string;
  url?: string;
}

/**
 * The payload Sino's sender encrypts into each push (src/shared/api/notification-payload.ts):
 * JSON, every field but title optional. A declarative push message (`web_push: 8030`) is read
 * into the same shape.
 */
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
  renotify?: boolean;
  requireInteraction?: boolean;
  silent?: boolean;
  actions?: PayloadAction[];
  appBadge?: number;
  lang?: string;
  dir?: NotificationDirection;
}

/** What the notification carries for the click handler and the event reports. */
export interface NotificationData {
  url: string | null;
  data?: unknown;
  /** Present when the payload named its notification. */
  notificationId?: string;
  /** Each action button's link, by action id (the Notification object keeps only id and label). */
  actions?: Partial<Record<NotificationActionId, string | null>>;
}

export interface ContentTexts {
  defaultTitle: string;
  fallbackBody: string;
}

/** Browsers cut long texts anyway; bounding them keeps a hostile payload from bloating the tray. */
const MAX_TITLE = 250;
const MAX_BODY = 1000;
const MAX_ACTION_TITLE = 60;

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
  const data: NotificationData = { url: payload.url ?? null, data: payload.data };
  if (payload.id !== undefined) data.notificationId = payload.id;
  const options: NotificationContent["options"] = {
    body: payload.body !== undefined ? truncate(payload.body, MAX_BODY) : "",
    data,
  };
  if (payload.icon) options.icon = payload.icon;
  if (payload.image) options.image = payload.image;
  if (payload.badge) options.badge = payload.badge;
  if (payload.lang) options.lang = payload.lang;
  if (payload.dir) options.dir = payload.dir;
  if (payload.tag) {
    options.tag = payload.tag;
    // renotify without a tag is a TypeError in showNotification (Notifications API §2.5).
    if (payload.renotify === true) options.renotify = true;
  }
  if (payload.requireInteraction === true) options.requireInteraction = true;
  if (payload.silent === true) options.silent = true;
  if (payload.actions && payload.actions.length > 0) {
    options.actions = payload.actions.map(({ action, title }) => ({ action, title }));
    data.actions = Object.fromEntries(payload.actions.map(({ action, url }) => [action, url ?? null]));
  }
  const content: NotificationContent = { title: truncate(payload.title, MAX_TITLE) || texts.defaultTitle, options };
  if (payload.appBadge !== undefined) content.appBadge = payload.appBadge;
  return content;
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parsePayload(text: string | null): PushPayload | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  if (value.web_push === DECLARATIVE_PUSH_MAGIC) return isRecord(value.notification) ? parseDeclarative(value) : null;
  return parseClassic(value);
}

const str = (record: JsonRecord, key: string): string | undefined => (typeof record[key] === "string" ? record[key] : undefined);
const bool = (record: JsonRecord, key: string): boolean | undefined => (typeof record[key] === "boolean" ? record[key] : undefined);

/** Sino's own payload: `{ title, body?, icon?, …, actions?: [{ action, title, url }], appBadge?, data? }`. */
function parseClassic(record: JsonRecord): PushPayload | null {
  const title = str(record, "title");
  if (title === undefined && str(record, "body") === undefined) return null;
  const payload: PushPayload = { title: title ?? "" };
  for (const key of ["body", "icon", "image", "badge", "tag", "url"] as const) {
    const v = str(record, key);
    if (v !== undefined) payload[key] = v;
  }
  if ("data" in record) payload.data = record.data;
  // Ids are strings in the API; a number is accepted so a sender that serialised one still counts.
  const id = idOf(record.id);
  if (id !== undefined) payload.id = id;
  copyFlags(record, payload);
  const actions = parseActions(record.actions, "url");
  if (actions.length > 0) payload.actions = actions;
  const badge = appBadgeOf(record.appBadge);
  if (badge !== undefined) payload.appBadge = badge;
  return payload;
}

/**
 * A declarative push message (W3C Push API, "declarative push message"): `{ web_push: 8030,
 * notification: { title, body?, navigate, lang?, dir?, tag?, silent?, icon?, image?, badge?,
 * requireInteraction?, renotify?, actions?: [{ action, title, navigate }], data? }, app_badge?,
 * mutable? }`. Sino puts `{ sinoId, url, data }` in `notification.data`. It reaches this worker as a
 * `push` event where the browser does not show declarative pushes itself (Chrome, Firefox) and,
 * being `mutable`, where it does (Safari): either way the worker shows it and counts it.
 */
function parseDeclarative(record: JsonRecord): PushPayload | null {
  const notification = record.notification as JsonRecord;
  const title = str(notification, "title");
  if (title === undefined) return null;
  const payload: PushPayload = { title };
  for (const key of ["body", "icon", "image", "badge", "tag", "lang"] as const) {
    const v = str(notification, key);
    if (v !== undefined) payload[key] = v;
  }
  const dir = str(notification, "dir");
  if (dir === "auto" || dir === "ltr" || dir === "rtl") payload.dir = dir;
  const sino = isRecord(notification.data) ? notification.data : {};
  const url = str(sino, "url") ?? str(notification, "navigate");
  if (url !== undefined) payload.url = url;
  if ("data" in sino) payload.data = sino.data;
  const id = idOf(sino.sinoId);
  if (id !== undefined) payload.id = id;
  copyFlags(notification, payload);
  const actions = parseActions(notification.actions, "navigate");
  if (actions.length > 0) payload.actions = actions;
  const badge = appBadgeOf(record.app_badge);
  if (badge !== undefined) payload.appBadge = badge;
  return payload;
}

function copyFlags(from: JsonRecord, to: PushPayload): void {
  for (const key of ["renotify", "requireInteraction", "silent"] as const) {
    const v = bool(from, key);
    if (v !== undefined) to[key] = v;
  }
}

function idOf(value: unknown): string | undefined {
  if ((typeof value === "string" && value !== "") || (typeof value === "number" && Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/** Sino's action ids are "1" and "2": anything else, a duplicate or a third one is left out. */
function parseActions(value: unknown, linkKey: "url" | "navigate"): PayloadAction[] {
  if (!Array.isArray(value)) return [];
  const actions: PayloadAction[] = [];
  for (const entry of value) {
    if (!isRecord(entry)) continue;
    const action = entry.action;
    const title = str(entry, "title");
    if (!isActionId(action) || !title || actions.some((a) => a.action === action)) continue;
    const link = str(entry, linkKey);
    actions.push(link === undefined ? { action, title: truncate(title, MAX_ACTION_TITLE) } : { action, title: truncate(title, MAX_ACTION_TITLE), url: link });
  }
  return actions.slice(0, ACTION_IDS.length);
}

export function isActionId(value: unknown): value is NotificationActionId {
  return typeof value === "string" && (ACTION_IDS as readonly string[]).includes(value);
}

/** The Badging API takes an unsigned long long; the declarative form may carry it as a numeric string. */
function appBadgeOf(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{1,15}$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
