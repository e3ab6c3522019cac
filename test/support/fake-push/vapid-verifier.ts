import { createPublicKey, verify, type KeyObject } from "node:crypto";

/** Why a push request's VAPID credentials were refused. */
export type VapidFailure =
  | "missing"
  | "malformed"
  | "bad_key"
  | "bad_alg"
  | "bad_signature"
  | "wrong_aud"
  | "expired"
  | "exp_too_far"
  | "bad_sub"
  | "key_mismatch";

export type VapidCheck =
  | { readonly ok: true; readonly publicKey: string; readonly sub: string }
  | { readonly ok: false; readonly reason: VapidFailure; readonly status: 401 | 403 };

export interface VapidVerifierOptions {
  /** The push service's origin: the only accepted `aud` (RFC 8292 §2). */
  readonly origin: string;
  /** Verified `Authorization` headers kept, by their text, so parsing and signature checks are not a per-request cost. */
  readonly cacheSize?: number;
  readonly now?: () => number;
}

interface VerifiedToken {
  readonly aud: unknown;
  readonly exp: unknown;
  readonly sub: unknown;
}

/**
 * What one `Authorization` header text is known to mean once its signature verified: everything
 * that depends on that text alone. Only `exp` against the clock and `k` against the subscription's
 * key are left to check per request.
 */
interface VerifiedHeader {
  readonly k: string;
  readonly audOk: boolean;
  readonly exp: number | undefined;
  readonly subOk: boolean;
  /** The answer when every check passes (the same object each time: it is read-only). */
  readonly ok: VapidCheck & { readonly ok: true };
}

const MAX_EXP_AHEAD_S = 24 * 3600;

/**
 * Checks `Authorization: vapid t=<jwt>, k=<key>` as the real push services do. Status codes follow
 * them: a missing or unreadable header is 401 (Mozilla autopush answers 401 to every VAPID fault;
 * FCM 401 "UnauthorizedRegistration"), a readable but invalid token is 403 (FCM's answer for bad
 * or mismatching credentials). Either way Sino must not retry.
 */
export function createVapidVerifier(options: VapidVerifierOptions) {
  const cacheSize = options.cacheSize ?? 10_000;
  const now = options.now ?? Date.now;
  /** Verified headers by their exact text, so parsing and signature checks are not a per-request cost. */
  const verified = new Map<string, VerifiedHeader>();
  let lastHeader: string | undefined;
  let lastKnown: VerifiedHeader | undefined;
  const keys = new Map<string, KeyObject | null>();

  function keyObject(k: string): KeyObject | null {
    let key = keys.get(k);
    if (key !== undefined) return key;
    key = null;
    const point = Buffer.from(k, "base64url");
    if (point.length === 65 && point[0] === 0x04) {
      try {
        key = createPublicKey({
          format: "jwk",
          key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
        });
      } catch {
        key = null; // not a point on the curve
      }
    }
    if (keys.size >= cacheSize) keys.clear();
    keys.set(k, key);
    return key;
  }

  function verifyToken(token: string, k: string): VerifiedToken | VapidFailure {
    const parts = token.split(".");
    if (parts.length !== 3) return "malformed";
    const [headerPart = "", claimsPart = "", signaturePart = ""] = parts;
    let header: unknown;
    let claims: unknown;
    try {
      header = JSON.parse(Buffer.from(headerPart, "base64url").toString("utf8"));
      claims = JSON.parse(Buffer.from(claimsPart, "base64url").toString("utf8"));
    } catch {
      return "malformed";
    }
    if (!isRecord(header) || !isRecord(claims)) return "malformed";
    if (header.alg !== "ES256") return "bad_alg";
    const key = keyObject(k);
    if (key === null) return "bad_key";
    const signature = Buffer.from(signaturePart, "base64url");
    // RFC 7518 §3.4: ES256 signatures are the 64-byte r || s, not DER.
    if (signature.length !== 64) return "bad_signature";
    const good = verify("sha256", Buffer.from(`${headerPart}.${claimsPart}`), { key, dsaEncoding: "ieee-p1363" }, signature);
    if (!good) return "bad_signature";
    return { aud: claims.aud, exp: claims.exp, sub: claims.sub };
  }

  /** What a parsed header means once verified; why not when its token does not verify. */
  function verifyHeader(parsed: { t: string; k: string }): VerifiedHeader | VapidFailure {
    const claims = verifyToken(parsed.t, parsed.k);
    if (typeof claims === "string") return claims;
    const sub = typeof claims.sub === "string" ? claims.sub : undefined;
    return {
      k: parsed.k,
      audOk: claims.aud === options.origin,
      exp: typeof claims.exp === "number" ? claims.exp : undefined,
      subOk: sub !== undefined && isContactUri(sub),
      // Only ever returned when subOk, so `sub` is then the string it was.
      ok: { ok: true, publicKey: parsed.k, sub: sub ?? "" },
    };
  }

  /** `expectedKey`: the applicationServerKey the subscription was made with, when known. */
  function check(authorization: string | undefined, expectedKey?: string): VapidCheck {
    if (authorization === undefined || authorization === "") return fail("missing", 401);
    // A sender reuses one token per audience: comparing with the last header skips hashing the
    // ~400-character text for the map.
    let known = authorization === lastHeader ? lastKnown : verified.get(authorization);
    if (known === undefined) {
      const parsed = parseVapidAuthorization(authorization);
      if (parsed === null) return fail("malformed", 401);
      const result = verifyHeader(parsed);
      if (typeof result === "string") return fail(result, 403);
      if (verified.size >= cacheSize) verified.clear();
      verified.set(authorization, result);
      known = result;
    }
    lastHeader = authorization;
    lastKnown = known;
    // Same order as an uncached check; the clock is read on every request, since a cached token
    // can expire.
    if (!known.audOk) return fail("wrong_aud", 403);
    const nowS = now() / 1000;
    if (known.exp === undefined || known.exp <= nowS) return fail("expired", 403);
    if (known.exp > Math.ceil(nowS) + MAX_EXP_AHEAD_S) return fail("exp_too_far", 403);
    if (!known.subOk) return fail("bad_sub", 403);
    // Equal text is equal bytes; otherwise compare the bytes (padded or not).
    if (expectedKey !== undefined && expectedKey !== known.k && !sameKey(expectedKey, known.k)) return fail("key_mismatch", 403);
    return known.ok;
  }

  return { check };
}

export type VapidVerifier = ReturnType<typeof createVapidVerifier>;

/** RFC 8292 §3: `vapid t=<token>, k=<key>`, parameters in any order. */
export function parseVapidAuthorization(value: string): { t: string; k: string } | null {
  const match = /^vapid\s+(.+)$/i.exec(value.trim());
  if (match?.[1] === undefined) return null;
  const params = new Map<string, string>();
  for (const part of match[1].split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) return null;
    params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const t = params.get("t");
  const k = params.get("k");
  if (t === undefined || k === undefined || t === "" || k === "") return null;
  return { t, k };
}

function isContactUri(sub: string): boolean {
  if (/^mailto:[^@\s]+@[^@\s]+$/.test(sub)) return true;
  try {
    return new URL(sub).protocol === "https:";
  } catch {
    return false;
  }
}

function sameKey(a: string, b: string): boolean {
  // Keys may arrive padded or not; compare the bytes.
  return Buffer.from(a, "base64url").equals(Buffer.from(b, "base64url"));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(reason: VapidFailure, status: 401 | 403): VapidCheck {
  return { ok: false, reason, status };
}
