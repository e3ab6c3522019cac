/**
 * Stable codes for everything the Web Push protocol layer can refuse. They are not HTTP API codes
 * (src/shared/errors.ts): the server maps the few that reach a user (e.g. `payload_too_large`)
 * onto its own list.
 */
export type PushErrorCode =
  | "base64url_invalid"
  | "vapid_key_invalid"
  | "vapid_subject_invalid"
  | "p256dh_invalid"
  | "auth_invalid"
  | "payload_too_large"
  | "ttl_invalid"
  | "urgency_invalid"
  | "topic_invalid"
  | "endpoint_invalid";

export class PushError extends Error {
  override readonly name = "PushError";
  constructor(
    readonly code: PushErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isPushError(value: unknown): value is PushError {
  return value instanceof PushError;
}
