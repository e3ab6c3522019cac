import { sign } from "node:crypto";
import { encodeBase64Url } from "./base64url.js";
import { PushError } from "./push-error.js";
import { parseVapidKeys, type ParsedVapidKeys, type VapidKeys } from "./vapid-keys.js";

export interface VapidSignerOptions {
  readonly keys: VapidKeys | ParsedVapidKeys;
  /** `mailto:` address or `https:` URL the push service can contact (RFC 8292 §2.1). */
  readonly subject: string;
  /** Milliseconds since the epoch; injectable for tests. */
  readonly clock?: () => number;
  /** Lifetime of a token. RFC 8292 §2 caps `exp` at 24 h; 12 h leaves room for clock skew. */
  readonly tokenLifetimeMs?: number;
  /** A cached token is re-signed once it is this old, so `exp` always lies far ahead. */
  readonly refreshAfterMs?: number;
}

export interface VapidSigner {
  readonly publicKey: string;
  readonly subject: string;
  /** The `Authorization` header value for a push service origin: `vapid t=<jwt>, k=<key>`. */
  authorizationFor(audience: string): string;
}

const HOUR = 3_600_000;
// {"typ":"JWT","alg":"ES256"}: fixed, so encoded once.
const JWT_HEADER = encodeBase64Url(Buffer.from(JSON.stringify({ typ: "JWT", alg: "ES256" })));

/**
 * RFC 8292 VAPID. Signing costs an ECDSA operation, so tokens are cached per audience (push service
 * origin) and re-signed at most about once an hour, never per message (web-push signs per message).
 */
export function createVapidSigner(options: VapidSignerOptions): VapidSigner {
  const subject = checkSubject(options.subject);
  const keys = "privateKeyObject" in options.keys ? options.keys : parseVapidKeys(options.keys);
  const clock = options.clock ?? Date.now;
  const lifetimeMs = options.tokenLifetimeMs ?? 12 * HOUR;
  const refreshAfterMs = options.refreshAfterMs ?? HOUR;
  if (lifetimeMs > 24 * HOUR || lifetimeMs <= refreshAfterMs) {
    throw new RangeError("VAPID token lifetime must be at most 24 h and longer than the refresh interval");
  }
  const cache = new Map<string, { header: string; signedAt: number }>();

  function sign_(audience: string, now: number): string {
    const claims = {
      aud: audience,
      exp: Math.floor((now + lifetimeMs) / 1000),
      sub: subject,
    };
    const unsigned = `${JWT_HEADER}.${encodeBase64Url(Buffer.from(JSON.stringify(claims)))}`;
    // JWS ES256 wants the raw r||s form (RFC 7518 §3.4), not DER.
    const signature = sign("sha256", Buffer.from(unsigned), {
      key: keys.privateKeyObject,
      dsaEncoding: "ieee-p1363",
    });
    return `vapid t=${unsigned}.${encodeBase64Url(signature)}, k=${keys.publicKey}`;
  }

  return {
    publicKey: keys.publicKey,
    subject,
    authorizationFor(audience) {
      const now = clock();
      const cached = cache.get(audience);
      if (cached !== undefined && now - cached.signedAt < refreshAfterMs && now >= cached.signedAt) {
        return cached.header;
      }
      const header = sign_(audience, now);
      cache.set(audience, { header, signedAt: now });
      return header;
    },
  };
}

/**
 * A `sub` the push services accept: `mailto:` with a plausible address whose domain is not
 * localhost (Apple answers 403 BadJwtToken to `mailto:x@localhost`), or an `https:` URL.
 */
export function checkSubject(subject: string): string {
  if (subject.startsWith("mailto:")) {
    const address = subject.slice("mailto:".length);
    const match = /^[^\s@<>()]+@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)$/.exec(address);
    const domain = match?.[1]?.toLowerCase();
    if (domain !== undefined && domain !== "localhost" && !domain.endsWith(".localhost")) {
      return subject;
    }
  } else if (subject.startsWith("https:")) {
    try {
      const url = new URL(subject);
      if (url.hostname !== "" && url.username === "" && url.password === "") return subject;
    } catch {
      // fall through to the coded error
    }
  }
  throw new PushError(
    "vapid_subject_invalid",
    "VAPID subject must be mailto:<address> (not at localhost) or an https: URL",
  );
}
