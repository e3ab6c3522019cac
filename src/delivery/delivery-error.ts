/** Why the engine refused a send, before anything was stored. */
export type DeliveryErrorCode =
  | "title_required"
  | "payload_too_large"
  | "ttl_invalid"
  | "urgency_invalid"
  | "topic_invalid"
  | "send_not_found";

export class DeliveryError extends Error {
  override readonly name = "DeliveryError";
  constructor(
    readonly code: DeliveryErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function isDeliveryError(value: unknown): value is DeliveryError {
  return value instanceof DeliveryError;
}
