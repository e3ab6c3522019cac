import { createECDH, createPrivateKey, sign, type KeyObject } from "node:crypto";

/**
 * A VAPID (RFC 8292) token maker for TESTS, independent of Sino's own signer in src/push, so the
 * fake push service is checked against something else than the code it is meant to check. It
 * signs whatever claims it is given: tests use it to make bad tokens on purpose.
 */
export interface VapidTestKeys {
  /** Uncompressed P-256 point, base64url (the `k=` parameter and the applicationServerKey). */
  readonly publicKey: string;
  /** 32-byte scalar, base64url. */
  readonly privateKey: string;
}

export interface VapidClaims {
  readonly aud?: string;
  readonly exp?: number;
  readonly sub?: string;
  readonly [claim: string]: unknown;
}

export function generateVapidTestKeys(): VapidTestKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString("base64url"),
    privateKey: scalarBytes(ecdh).toString("base64url"),
  };
}

/**
 * The private scalar as its fixed 32 bytes. OpenSSL drops leading zero bytes (one key in 256), and
 * a 31-byte `d` is refused by JWK import and by web-push ("should be 32 bytes long").
 */
export function scalarBytes(ecdh: { getPrivateKey(): Buffer }): Buffer {
  const scalar = ecdh.getPrivateKey();
  return scalar.length === 32 ? scalar : Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]);
}

export function vapidKeyObject(keys: VapidTestKeys): KeyObject {
  const point = Buffer.from(keys.publicKey, "base64url");
  return createPrivateKey({
    format: "jwk",
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33, 65).toString("base64url"),
      d: keys.privateKey,
    },
  });
}

export function signVapidJwt(keys: VapidTestKeys, claims: VapidClaims, header: object = { typ: "JWT", alg: "ES256" }): string {
  const encode = (value: object): string => Buffer.from(JSON.stringify(value)).toString("base64url");
  const unsigned = `${encode(header)}.${encode(claims)}`;
  // JWS ES256 wants the raw r || s form (RFC 7518 §3.4), not DER.
  const signature = sign("sha256", Buffer.from(unsigned), { key: vapidKeyObject(keys), dsaEncoding: "ieee-p1363" });
  return `${unsigned}.${signature.toString("base64url")}`;
}

/** `Authorization` header value for `aud`, valid for 12 h unless `claims` says otherwise. */
export function vapidAuthorization(keys: VapidTestKeys, aud: string, claims: VapidClaims = {}): string {
  const jwt = signVapidJwt(keys, {
    aud,
    exp: Math.floor(Date.now() / 1000) + 12 * 3600,
    sub: "mailto:ops@sino.example",
    ...claims,
  });
  return `vapid t=${jwt}, k=${keys.publicKey}`;
}
