import { MAX_PLAINTEXT_LENGTH } from "../push/encrypt.js";
import { checkPushOptions, type Urgency } from "../push/push-options.js";
import type { Audience, NewNotification } from "../store/notifications-repository.js";
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
  /** Epoch ms. In the future: stored as `scheduled`; the scheduler sends it out when due. */
  readonly sendAt?: number;
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

/** Checks a send and turns it into the row to store; throws a coded `DeliveryError`. */
export function prepareSend(input: SendInput): NewNotification {
  const title = input.title.trim();
  if (title === "") throw new DeliveryError("title_required", "a notification needs a title");
  const options = checkPushOptions({
    ...(input.ttlSeconds === undefined ? {} : { ttl: input.ttlSeconds }),
    ...(input.urgency === undefined ? {} : { urgency: input.urgency }),
    ...(input.topic === undefined ? {} : { topic: input.topic }),
  });
  if (!options.ok) throw new DeliveryError(options.code, options.message);
  const prepared: NewNotification = {
    title,
    body: input.body ?? null,
    icon: input.icon ?? null,
    image: input.image ?? null,
    badge: input.badge ?? null,
    tag: input.tag === undefined || input.tag === "" ? undefined : input.tag,
    url: input.url ?? null,
    urgency: options.value.urgency ?? null,
    ttlSeconds: options.value.ttl,
    topic: options.value.topic ?? null,
    audience: input.audience ?? { kind: "everyone" },
    ...(input.sendAt === undefined ? {} : { sendAt: input.sendAt }),
  };
  // RFC 8291 §4: one 4096-byte record, so at most 3993 bytes of plaintext. Refused here, before
  // anything is stored, rather than by every worker for every subscription.
  const size = Buffer.byteLength(payloadFor(prepared, prepared.tag ?? LONGEST_DEFAULT_TAG, LONGEST_ID));
  if (size > MAX_PLAINTEXT_LENGTH) {
    throw new DeliveryError("payload_too_large", `the payload is ${size} bytes; at most ${MAX_PLAINTEXT_LENGTH} fit one push`);
  }
  return prepared;
}

/** The payload JSON for a stored send. */
export function payloadFor(notification: Omit<NewNotification, "tag">, tag: string, id?: string): string {
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
