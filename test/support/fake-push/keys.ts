import { createECDH, createHmac, type ECDH } from "node:crypto";

/**
 * Subscriber keys the fake push service can re-derive on its own, so a benchmark can seed
 * 1,000,000 subscriptions without handing the service 1,000,000 private keys: both sides call
 * `subscriberKeysFor(seed, id)` and get the same P-256 key pair and auth secret.
 */
export interface SubscriberKeys {
  /** P-256 private scalar, 32 bytes. */
  readonly privateKey: Buffer;
  /** Uncompressed public point, 65 bytes (0x04 || x || y), as `PushSubscription.keys.p256dh`. */
  readonly p256dh: Buffer;
  /** Auth secret, 16 bytes (RFC 8291 §3.2), as `PushSubscription.keys.auth`. */
  readonly auth: Buffer;
}

/** What the browser would give: `PushSubscription.toJSON()`. */
export interface SubscriptionJson {
  readonly endpoint: string;
  readonly expirationTime: null;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

export const DEFAULT_KEY_SEED = "sino-fake-push";

// Order of the P-256 group (SEC 2 §2.4.2); a private scalar must lie in [1, n - 1].
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

export function subscriberKeysFor(seed: string | Buffer, id: string): SubscriberKeys {
  const { privateKey, auth } = subscriberSecretsFor(seed, id);
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return { privateKey, p256dh: ecdh.getPublicKey(), auth };
}

/**
 * The secret half of `subscriberKeysFor` (private scalar and auth), which is all decryption needs:
 * it skips the EC point multiplication that computes `p256dh`.
 */
export function subscriberSecretsFor(seed: string | Buffer, id: string): Pick<SubscriberKeys, "privateKey" | "auth"> {
  const digest = createHmac("sha256", seed).update(`p${id}`).digest();
  // A 256-bit digest reduced mod (n - 1), plus one: never zero, never >= n. The bias is ~2^-32,
  // irrelevant for test keys.
  const scalar = (BigInt(`0x${digest.toString("hex")}`) % (P256_ORDER - 1n)) + 1n;
  const privateKey = Buffer.from(scalar.toString(16).padStart(64, "0"), "hex");
  const auth = createHmac("sha256", seed).update(`a${id}`).digest().subarray(0, 16);
  return { privateKey, auth: Buffer.from(auth) };
}

/** A subscription as the browser would serialise it, for `endpoint` and `keys`. */
export function subscriptionJson(endpoint: string, keys: Pick<SubscriberKeys, "p256dh" | "auth">): SubscriptionJson {
  return {
    endpoint,
    expirationTime: null,
    keys: { p256dh: keys.p256dh.toString("base64url"), auth: keys.auth.toString("base64url") },
  };
}

/** An ECDH object holding `privateKey`, the form http_ece wants for decryption. */
export function ecdhFromPrivateKey(privateKey: Buffer): ECDH {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return ecdh;
}
