/**
 * Messages of Mozilla's WebSocket push protocol (autopush), as Firefox's client speaks it
 * (`modules/PushServiceWebSocket.sys.mjs` in omni.ja). JSON text frames; a bare `{}` is a ping.
 */
export interface HelloRequest {
  readonly messageType: "hello";
  /** Sent only when the client already holds subscriptions (bug 1617136). */
  readonly uaid?: string;
  readonly use_webpush?: boolean;
  readonly broadcasts?: Record<string, unknown>;
}

export interface RegisterRequest {
  readonly messageType: "register";
  readonly channelID: string;
  /** The subscription's applicationServerKey (VAPID public key), base64url. */
  readonly key?: string;
}

export interface UnregisterRequest {
  readonly messageType: "unregister";
  readonly channelID: string;
  /** 200 manual, 201 quota exceeded, 202 permission revoked. */
  readonly code?: number;
}

export interface AckRequest {
  readonly messageType: "ack";
  readonly updates: readonly { readonly channelID: string; readonly version: string; readonly code?: number }[];
}

/** Sent when the service worker's push handler failed (301 uncaught, 302 rejection, 303 internal). */
export interface NackRequest {
  readonly messageType: "nack";
  readonly version: string;
  readonly code: number;
}

export type ClientMessage = HelloRequest | RegisterRequest | UnregisterRequest | AckRequest | NackRequest;

/** Ack codes (kACK_STATUS_TO_CODE in Firefox). */
export const ACK_DELIVERED = 100;
export const ACK_DECRYPTION_ERROR = 101;
export const ACK_NOT_DELIVERED = 102;

export function parseClientMessage(text: string): ClientMessage | "ping" | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const type = (value as { messageType?: unknown }).messageType;
  // Firefox pings with `{}`; it also treats a missing messageType as a ping.
  if (type === undefined || type === "ping") return "ping";
  if (type === "hello" || type === "register" || type === "unregister" || type === "ack" || type === "nack") {
    return value as ClientMessage;
  }
  return null;
}
