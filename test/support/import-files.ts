import { createECDH, randomBytes } from "node:crypto";
import { aBrowserSubscription } from "./subscriptions.js";

/** A subscription with real keys (a P-256 point, 16 random auth bytes), as a file would hold it. */
export interface FileSubscription {
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
}

export function aFileSubscription(overrides: { endpoint?: string } = {}): FileSubscription {
  const json = aBrowserSubscription(overrides);
  return { endpoint: json.endpoint, p256dh: json.keys.p256dh, auth: json.keys.auth };
}

/** A 65-byte uncompressed point that is not on P-256 (x and y random): the key check must refuse it. */
export function anOffCurveKey(): string {
  const point = Buffer.concat([Buffer.from([4]), randomBytes(64)]);
  return point.toString("base64url");
}

/** `{ endpoint, keys }`, one per line, plus `extra` properties (userId, channels…). */
export function ndjsonLine(subscription: FileSubscription, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ endpoint: subscription.endpoint, expirationTime: null, keys: { p256dh: subscription.p256dh, auth: subscription.auth }, ...extra });
}

/**
 * Many distinct subscriptions fast: a few hundred real key pairs reused (a key may repeat across
 * subscriptions; the endpoint may not), each endpoint unique by its counter.
 */
export function subscriptionFactory(keyPairs = 256): (index: number) => FileSubscription {
  const keys = Array.from({ length: keyPairs }, () => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
  });
  const run = randomBytes(6).toString("base64url");
  return (index) => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${run}-${index}`, ...keys[index % keyPairs]! });
}

/** A CSV cell, quoted when it holds the delimiter, a quote or a line break. */
export function csvCell(value: string, delimiter = ","): string {
  return value.includes(delimiter) || /["\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
