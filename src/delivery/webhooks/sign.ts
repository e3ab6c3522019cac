import { createHmac, randomBytes } from "node:crypto";

/** Standard Webhooks: a secret is this prefix and the base64 of the key bytes. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` + base64 of 32 random bytes (a 256-bit HMAC-SHA256 key). */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** The headers that sign one delivery (https://www.standardwebhooks.com, "Signature scheme"). */
export interface WebhookSignatureHeaders {
  readonly "webhook-id": string;
  /** Unix seconds. */
  readonly "webhook-timestamp": string;
  /** `v1,<base64 HMAC-SHA256>`; the spec allows several space-separated, we send one. */
  readonly "webhook-signature": string;
}

/**
 * Signs `<id>.<timestamp>.<body>` with HMAC-SHA256, the key being the base64-decoded part of the
 * secret after `whsec_`. `body` must be the exact bytes sent: receivers verify the raw body.
 */
export function signWebhook(secret: string, messageId: string, timestampSeconds: number, body: string): WebhookSignatureHeaders {
  const timestamp = String(Math.floor(timestampSeconds));
  const key = Buffer.from(secret.startsWith(WEBHOOK_SECRET_PREFIX) ? secret.slice(WEBHOOK_SECRET_PREFIX.length) : secret, "base64");
  const mac = createHmac("sha256", key).update(`${messageId}.${timestamp}.${body}`).digest("base64");
  return { "webhook-id": messageId, "webhook-timestamp": timestamp, "webhook-signature": `v1,${mac}` };
}
