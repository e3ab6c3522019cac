import { createHash } from "node:crypto";
import { MAX_PLAINTEXT_LENGTH } from "../push/encrypt.js";
import { checkPushOptions, MAX_TOPIC_LENGTH, type Urgency } from "../push/push-options.js";
import { NOTIFICATION_LIMITS, isLinkShape, type NotificationCategory } from "../shared/api/notifications.js";
import { fillPlaceholders, hasPlaceholders, type PersonData } from "../shared/api/placeholders.js";
import { hasControlCharacters } from "../shared/api/text.js";
import type { Audience, NewNotification, SendPerson } from "../store/notifications-repository.js";
import { DeliveryError } from "./delivery-error.js";

/** What a caller asks to send. Everything but the title is optional. */
export interface SendInput {
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
  readonly people?: readonly SendPerson[];
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
}

/**
 * The JSON the service worker reads (src/web/sw/notification-content.ts): `title` plus the
 * optional fields that are set, nothing else.
 */
export interface PushPayload {
  readonly title: string;
  readonly body?: string;
  readonly icon?: string;
  readonly image?: string;
  readonly badge?: string;
  readonly tag: string;
  readonly url?: string;
  /** The send's id, so the service worker can report shown/clicked/closed (POST /events). */
  readonly id?: string;
}

/** The largest tag an id can produce (`sino-` and 16 digits), to size the payload before the id exists. */
const LONGEST_DEFAULT_TAG = `sino-${"9".repeat(16)}`;
/** The largest id, to size the payload before the id exists. */
const LONGEST_ID = "9".repeat(16);

/**
 * RFC 8030 §5.4: a Topic is at most 32 characters of base64url, so a collapse key (any printable
 * text) is hashed: the first 32 characters of base64url(SHA-256(key)).
 */
export function topicForCollapseKey(collapseKey: string): string {
  return createHash("sha256").update(collapseKey, "utf8").digest("base64url").slice(0, MAX_TOPIC_LENGTH);
}

/** The texts placeholders may stand in. */
export interface SendTemplate {
  readonly title: string;
  readonly body: string | null;
  readonly url: string | null;
}

/**
 * A person's copy of a personalised send: each placeholder filled from their data (link values
 * `encodeURIComponent`-escaped), then the limits checked on what the person will see.
 */
export function fillTemplate(template: SendTemplate, data: PersonData | null): SendTemplate {
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

/** Checks a send and turns it into the row to store; throws a coded `DeliveryError`. */
export function prepareSend(input: SendInput): NewNotification {
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
  };
  const personalised = (["title", "body", "url"] as const).find((field) => hasPlaceholders(prepared[field]));
  if (personalised === undefined) {
    checkPayloadSize(payloadFor(prepared, prepared.tag ?? LONGEST_DEFAULT_TAG, LONGEST_ID));
    return prepared;
  }
  if (prepared.audience.kind !== "people") {
    throw new DeliveryError("placeholder_not_allowed", "placeholders are filled per person: only a send to people may hold them", personalised);
  }
  // Every person's copy is checked before anything is stored: a missing value or a broken limit
  // refuses the whole send rather than failing one person's push later.
  for (const person of input.people ?? []) {
    checkPayloadSize(payloadFor({ ...prepared, ...fillTemplate(prepared, person.data) }, prepared.tag ?? LONGEST_DEFAULT_TAG, LONGEST_ID));
  }
  return { ...prepared, personalised: true };
}

/** RFC 8291 §4: one 4096-byte record, so at most 3993 bytes of plaintext; refused before anything is stored. */
function checkPayloadSize(payload: string): void {
  const size = Buffer.byteLength(payload);
  if (size > MAX_PLAINTEXT_LENGTH) {
    throw new DeliveryError("payload_too_large", `the payload is ${size} bytes; at most ${MAX_PLAINTEXT_LENGTH} fit one push`);
  }
}

/** The payload JSON for a stored send (for a personalised one, its template or one person's copy). */
export function payloadFor(notification: Pick<NewNotification, "title" | "body" | "icon" | "image" | "badge" | "url">, tag: string, id?: string): string {
  const payload: PushPayload = {
    title: notification.title,
    ...(notification.body === null ? {} : { body: notification.body }),
    ...(notification.icon === null ? {} : { icon: notification.icon }),
    ...(notification.image === null ? {} : { image: notification.image }),
    ...(notification.badge === null ? {} : { badge: notification.badge }),
    tag,
    ...(notification.url === null ? {} : { url: notification.url }),
    ...(id === undefined ? {} : { id }),
  };
  return JSON.stringify(payload);
}
