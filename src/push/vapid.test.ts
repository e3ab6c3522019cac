import { verify } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeBase64Url } from "./base64url.js";
import { createVapidSigner } from "./vapid.js";
import { generateVapidKeys, parseVapidKeys } from "./vapid-keys.js";

const keys = generateVapidKeys();
const HOUR = 3_600_000;

function decodeJwt(header: string) {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID header: ${header}`);
  const [h, p, s] = match[1].split(".");
  return {
    token: match[1],
    k: match[2],
    header: JSON.parse(decodeBase64Url(h ?? "")!.toString()) as Record<string, unknown>,
    claims: JSON.parse(decodeBase64Url(p ?? "")!.toString()) as { aud: string; exp: number; sub: string },
    signed: `${h}.${p}`,
    signature: decodeBase64Url(s ?? "")!,
  };
}

describe("createVapidSigner", () => {
  it("signs an ES256 JWT with aud = origin, exp 12 h ahead and sub, verifiable with k", () => {
    const now = 1_700_000_000_000;
    const signer = createVapidSigner({ keys, subject: "mailto:ops@example.com", clock: () => now });
    const jwt = decodeJwt(signer.authorizationFor("https://push.example.net"));
    expect(jwt.header).toEqual({ typ: "JWT", alg: "ES256" });
    expect(jwt.claims).toEqual({ aud: "https://push.example.net", exp: now / 1000 + 12 * 3600, sub: "mailto:ops@example.com" });
    expect(jwt.k).toBe(keys.publicKey);
    expect(jwt.signature.length).toBe(64);
    const ok = verify("sha256", Buffer.from(jwt.signed), { key: parseVapidKeys(keys).publicKeyObject, dsaEncoding: "ieee-p1363" }, jwt.signature);
    expect(ok).toBe(true);
  });

  it("reuses the token for the same audience within the hour and re-signs after", () => {
    let now = 1_700_000_000_000;
    const signer = createVapidSigner({ keys, subject: "https://sino.example.com/contact", clock: () => now });
    const first = signer.authorizationFor("https://a.example");
    now += HOUR - 1;
    expect(signer.authorizationFor("https://a.example")).toBe(first);
    now += 1;
    const second = signer.authorizationFor("https://a.example");
    expect(second).not.toBe(first);
    expect(decodeJwt(second).claims.exp).toBe(Math.floor((now + 12 * HOUR) / 1000));
  });

  it("keeps one token per audience", () => {
    const signer = createVapidSigner({ keys, subject: "mailto:ops@example.com", clock: () => 1_700_000_000_000 });
    const a = decodeJwt(signer.authorizationFor("https://a.example"));
    const b = decodeJwt(signer.authorizationFor("https://b.example"));
    expect(a.claims.aud).toBe("https://a.example");
    expect(b.claims.aud).toBe("https://b.example");
  });

  it("re-signs when the clock goes backwards rather than serve a token from the future", () => {
    let now = 1_700_000_000_000;
    const signer = createVapidSigner({ keys, subject: "mailto:ops@example.com", clock: () => now });
    const first = signer.authorizationFor("https://a.example");
    now -= 10 * 60_000;
    expect(signer.authorizationFor("https://a.example")).not.toBe(first);
  });

  it.each([
    "mailto:x@localhost",
    "mailto:x@push.localhost",
    "mailto:",
    "mailto:no-at-sign",
    "mailto:a@b",
    "mailto:a b@example.com",
    "http://example.com",
    "https://",
    "https://user:pw@example.com",
    "ops@example.com",
    "",
  ])("refuses the subject %j at construction", (subject) => {
    expect(() => createVapidSigner({ keys, subject })).toThrow(expect.objectContaining({ code: "vapid_subject_invalid" }));
  });

  it.each(["mailto:ops@example.com", "mailto:sino+push@mail.example.com.br", "https://example.com", "https://example.com/contato"])(
    "accepts the subject %j",
    (subject) => {
      expect(createVapidSigner({ keys, subject }).subject).toBe(subject);
    },
  );

  it("refuses a token lifetime beyond 24 h", () => {
    expect(() => createVapidSigner({ keys, subject: "mailto:ops@example.com", tokenLifetimeMs: 25 * HOUR })).toThrow(RangeError);
  });
});
