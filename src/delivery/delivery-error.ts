/** Why the engine refused a notification, before anything was stored. */
export type DeliveryErrorCode =
  | "title_required"
  | "payload_too_large"
  | "ttl_invalid"
  | "urgency_invalid"
  | "topic_invalid"
  | "send_not_found"
  /** A person of a personalised notification has no value for a placeholder (the error's `field` names it). */
  | "placeholder_missing"
  /** Placeholders in a notification that is not to people. */
  | "placeholder_not_allowed"
  /** Filled for some person, the title, body or link breaks its limit. */
  | "title_too_long"
  | "body_too_long"
  | "link_invalid"
  | "text_control_characters"
  /** An edit of a notification that is no longer scheduled (it started, finished or was cancelled). */
  | "send_not_scheduled";

export class DeliveryError extends Error {
  override readonly name = "DeliveryError";
  constructor(
    readonly code: DeliveryErrorCode,
    message: string,
    /** What the refusal is about: a placeholder's name, or the field that broke its limit. */
    readonly field?: string,
    /** `payload_too_large`: the encrypted push's size, the most one holds, and how much over. */
    readonly details?: { readonly bytes: number; readonly max: number; readonly over: number },
  ) {
    super(message);
  }
}

export function isDeliveryError(value: unknown): value is DeliveryError {
  return value instanceof DeliveryError;
}
