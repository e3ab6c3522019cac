import { createHash } from "node:crypto";
import { checkPushOptions, MAX_TOPIC_LENGTH, type Urgency } from "../push/push-options.js";
import { NOTIFICATION_LIMITS, isLinkShape, type NotificationCategory } from "../shared/api/notifications.js";
import { fillPlaceholders, hasPlaceholders, type PersonData } from "../shared/api/placeholders.js";
import { hasControlCharacters } from "../shared/api/text.js";
import {
  LONGEST_DEFAULT_TAG,
  LONGEST_ID,
  PUSH_RECORD_SIZE,
  classicPayload,
  declarativePayload,
  encryptedRecordSize,
  type PayloadAction,
} from "../shared/api/notification-payload.js";
import type { Audience, NewNotification, NotificationPerson } from "../store/notifications-repository.js";
import { DeliveryError } from "./delivery-error.js";

/** What a caller asks to send. Everything but the title is optional. */
export interface NotificationInput {
  readonly title: string;
  readonly body?: string;
  readonly icon?: string;
  readonly image?: string;
  readonly badge?: string;
  /** Defaults to `sino-<id>`: a duplicate delivery then replaces the notification, never stacks. */
  readonly tag?: string;
  /** Opened on click. */
  readonly url?: string;
  readonly urgency?: Urgency;
  /** How long push services keep the message for an offline browser (RFC 8030 §5.2). */
  readonly ttlSeconds?: number;
  /** Replaces a still-undelivered message with the same topic (RFC 8030 §5.4). */
  readonly topic?: string;
  readonly audience?: Audience;
  /** A `people` audience's people, each once (the caller folds repeats, the last data winning). */
  readonly people?: readonly NotificationPerson[];
  /** Default `marketing`. */
  readonly category?: NotificationCategory;
  /**
   * A later notification with the same key replaces this one: it becomes the tag, and its hash
   * the RFC 8030 Topic (so an undelivered copy is replaced at the push service too).
   */
  readonly collapseKey?: string;
  /** Epoch ms. In the future: stored as `scheduled`; the scheduler sends it out when due. */
  readonly sendAt?: number;
  /** `hidden`: kept off the public Avisos page (default `public`). */
  readonly notice?: "public" | "hidden";
  /** Up to two action buttons (ids "1" and "2"). */
  readonly actions?: readonly PayloadAction[];
  /** Alert again on replacing a shown notification: kept only with a collapse key (a tag of its own). */
  readonly renotify?: boolean;
  readonly requireInteraction?: boolean;
  readonly silent?: boolean;
  /** `navigator.setAppBadge` count. */
  readonly appBadge?: number;
  /** JSON for the site's page; null: none. */
  readonly data?: unknown;
  /** gates: an admin's override of caps, windows and sleeping (breaking news). */
  readonly exempt?: boolean;
  /** gates: may reach sleeping subscribers, once per sleeping period. */
  readonly reengagement?: boolean;
}

/**
 * RFC 8030 §5.4: a Topic is at most 32 characters of base64url, so a collapse key (any printable
 * text) is hashed: the first 32 characters of base64url(SHA-256(key)).
 */
export function topicForCollapseKey(collapseKey: string): string {
  return createHash("sha256").update(collapseKey, "utf8").digest("base64url").slice(0, MAX_TOPIC_LENGTH);
}

/** The texts placeholders may stand in. */
export interface PersonalisedTexts {
  readonly title: string;
  readonly body: string | null;
  readonly url: string | null;
}

/**
 * A person's copy of a personalised notification: each placeholder filled from their data (link values
 * `encodeURIComponent`-escaped), then the limits checked on what the person will see.
 */
export function personalCopy(template: PersonalisedTexts, data: PersonData | null): PersonalisedTexts {
  const fill = (field: "title" | "body" | "url", text: string, escape?: (value: string) => string): string => {
    const filled = fillPlaceholders(text, data, escape);
    if (!filled.ok) throw new DeliveryError("placeholder_missing", `no value for the placeholder ${filled.missing}`, filled.missing);
    if (hasControlCharacters(filled.text, field === "body" ? "multi-line" : "single-line")) {
      throw new DeliveryError("text_control_characters", `the ${field} holds a control character once filled`, field);
    }
    return filled.text;
  };
  const title = fill("title", template.title);
  if (title.length > NOTIFICATION_LIMITS.title) throw new DeliveryError("title_too_long", "the title is too long once filled", "title");
  const body = template.body === null ? null : fill("body", template.body);
  if (body !== null && body.length > NOTIFICATION_LIMITS.body) throw new DeliveryError("body_too_long", "the body is too long once filled", "body");
  const url = template.url === null ? null : fill("url", template.url, encodeURIComponent);
  if (url !== null && (url.length > NOTIFICATION_LIMITS.link || !isLinkShape(url))) throw new DeliveryError("link_invalid", "the link is invalid once filled", "url");
  return { title, body, url };
}

/**
 * Checks a send and turns it into the row to store; throws a coded `DeliveryError`. `publicUrl`
 * (SINO_PUBLIC_URL) makes the declarative form's absolute links; without it no declarative form
 * is made (every browser gets the classic one), and only the classic one is sized.
 */
export function prepareNotification(input: NotificationInput, publicUrl?: string): NewNotification {
  const title = input.title.trim();
  if (title === "") throw new DeliveryError("title_required", "a notification needs a title");
  const collapseKey = input.collapseKey === undefined || input.collapseKey === "" ? undefined : input.collapseKey;
  const topic = input.topic ?? (collapseKey === undefined ? undefined : topicForCollapseKey(collapseKey));
  const options = checkPushOptions({
    ...(input.ttlSeconds === undefined ? {} : { ttl: input.ttlSeconds }),
    ...(input.urgency === undefined ? {} : { urgency: input.urgency }),
    ...(topic === undefined ? {} : { topic }),
  });
  if (!options.ok) throw new DeliveryError(options.code, options.message);
  const prepared: NewNotification = {
    title,
    body: input.body ?? null,
    icon: input.icon ?? null,
    image: input.image ?? null,
    badge: input.badge ?? null,
    tag: collapseKey ?? (input.tag === undefined || input.tag === "" ? undefined : input.tag),
    url: input.url ?? null,
    urgency: options.value.urgency ?? null,
    ttlSeconds: options.value.ttl,
    topic: options.value.topic ?? null,
    audience: input.audience ?? { kind: "everyone" },
    category: input.category ?? "marketing",
    collapseKey: collapseKey ?? null,
    ...(input.people === undefined ? {} : { people: input.people }),
    ...(input.sendAt === undefined ? {} : { sendAt: input.sendAt }),
    ...(input.notice === undefined ? {} : { notice: input.notice }),
    ...(input.actions === undefined || input.actions.length === 0 ? {} : { actions: input.actions.map(({ label, url }) => ({ label, url })) }),
    // A renotify needs a tag of the sender's own to replace a shown notification: without a
    // collapse key every notification has its own tag, and there is nothing to renotify over.
    ...(input.renotify === true && collapseKey !== undefined ? { renotify: true } : {}),
    ...(input.requireInteraction === true ? { requireInteraction: true } : {}),
    ...(input.silent === true ? { silent: true } : {}),
    ...(input.appBadge === undefined ? {} : { appBadge: input.appBadge }),
    ...(input.data === undefined || input.data === null ? {} : { data: input.data }),
    ...(input.exempt === true ? { exempt: true } : {}),
    ...(input.reengagement === true ? { reengagement: true } : {}),
  };
  const personalised = (["title", "body", "url"] as const).find((field) => hasPlaceholders(prepared[field]));
  const tag = prepared.tag ?? LONGEST_DEFAULT_TAG;
  if (personalised === undefined) {
    checkPayloadSize(prepared, tag, publicUrl);
    return prepared;
  }
  if (prepared.audience.kind !== "people") {
    throw new DeliveryError("placeholder_not_allowed", "placeholders are filled per person: only a send to people may hold them", personalised);
  }
  // Every person's copy is checked before anything is stored: a missing value or a broken limit
  // refuses the whole notification rather than failing one person's push later.
  for (const person of input.people ?? []) checkPayloadSize({ ...prepared, ...personalCopy(prepared, person.data) }, tag, publicUrl);
  return { ...prepared, personalised: true };
}

/** What a payload is made of: a stored send, or a person's copy of one. */
export type PayloadSource = Pick<NewNotification, "title" | "body" | "icon" | "image" | "badge" | "url" | "actions" | "renotify" | "requireInteraction" | "silent" | "appBadge" | "data">;

/**
 * RFC 8291 §4: the encrypted push must fit one 4,096-byte record. Both forms are sized exactly as
 * encrypted (sizes with the longest id), and the larger one decides; refused before anything is
 * stored, with how much is over.
 */
function checkPayloadSize(send: PayloadSource, tag: string, publicUrl: string | undefined): void {
  const classic = encryptedRecordSize(payloadFor(send, tag, LONGEST_ID));
  const bytes = publicUrl === undefined ? classic : Math.max(classic, encryptedRecordSize(declarativePayloadFor(send, tag, LONGEST_ID, publicUrl)));
  if (bytes > PUSH_RECORD_SIZE) {
    const details = { bytes, max: PUSH_RECORD_SIZE, over: bytes - PUSH_RECORD_SIZE };
    throw new DeliveryError("payload_too_large", `the encrypted push would be ${bytes} bytes; at most ${PUSH_RECORD_SIZE} fit one record`, undefined, details);
  }
}

function fieldsOf(send: PayloadSource, tag: string, id: string | undefined) {
  return {
    title: send.title,
    body: send.body,
    url: send.url,
    icon: send.icon,
    image: send.image,
    badge: send.badge,
    tag,
    renotify: send.renotify ?? false,
    requireInteraction: send.requireInteraction ?? false,
    silent: send.silent ?? false,
    actions: send.actions ?? [],
    appBadge: send.appBadge ?? null,
    data: send.data ?? null,
    id: id ?? null,
  };
}

/** The classic payload JSON (Sino's worker) for a stored send (for a personalised one, its template or one person's copy). */
export function payloadFor(send: PayloadSource, tag: string, id?: string): string {
  return classicPayload(fieldsOf(send, tag, id));
}

/** The declarative payload JSON (Push API) of the same push; links made absolute against `publicUrl`. */
export function declarativePayloadFor(send: PayloadSource, tag: string, id: string | undefined, publicUrl: string): string {
  return declarativePayload(fieldsOf(send, tag, id), publicUrl);
}
