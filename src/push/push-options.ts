import { isBase64UrlText } from "./base64url.js";
import { PushError } from "./push-error.js";

/** RFC 8030 §5.3 urgency levels. */
export const URGENCIES = ["very-low", "low", "normal", "high"] as const;
export type Urgency = (typeof URGENCIES)[number];

/** What a sender may ask of the push service for one message (RFC 8030 §5). */
export interface PushOptions {
  /** Seconds the push service keeps the message for an offline device (RFC 8030 §5.2). */
  readonly ttl?: number;
  readonly urgency?: Urgency;
  /** Replaces an undelivered message with the same topic (RFC 8030 §5.4). */
  readonly topic?: string;
}

export interface ResolvedPushOptions {
  readonly ttl: number;
  readonly urgency: Urgency | undefined;
  readonly topic: string | undefined;
}

/** Four weeks: the longest FCM keeps a message, and what the other services accept. */
export const DEFAULT_TTL_SECONDS = 28 * 24 * 3600;
export const MAX_TTL_SECONDS = DEFAULT_TTL_SECONDS;
/** RFC 8030 §5.4: a topic is at most 32 characters of the URL-safe base64 alphabet. */
export const MAX_TOPIC_LENGTH = 32;

export type PushOptionsCheck =
  | { ok: true; value: ResolvedPushOptions }
  | { ok: false; code: "ttl_invalid" | "urgency_invalid" | "topic_invalid"; message: string };

/** Checks options without throwing: the API layer uses this to answer a clear error. */
export function checkPushOptions(options: PushOptions = {}): PushOptionsCheck {
  const ttl = options.ttl ?? DEFAULT_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL_SECONDS) {
    return { ok: false, code: "ttl_invalid", message: `TTL must be an integer from 0 to ${MAX_TTL_SECONDS} seconds` };
  }
  if (options.urgency !== undefined && !URGENCIES.includes(options.urgency)) {
    return { ok: false, code: "urgency_invalid", message: `Urgency must be one of ${URGENCIES.join(", ")}` };
  }
  if (options.topic !== undefined && !isBase64UrlText(options.topic, MAX_TOPIC_LENGTH)) {
    return {
      ok: false,
      code: "topic_invalid",
      message: `Topic must be 1 to ${MAX_TOPIC_LENGTH} characters of A-Z a-z 0-9 - _`,
    };
  }
  return { ok: true, value: { ttl, urgency: options.urgency, topic: options.topic } };
}

/** Like `checkPushOptions`, but throws the coded `PushError`. */
export function resolvePushOptions(options: PushOptions = {}): ResolvedPushOptions {
  const check = checkPushOptions(options);
  if (!check.ok) throw new PushError(check.code, check.message);
  return check.value;
}
