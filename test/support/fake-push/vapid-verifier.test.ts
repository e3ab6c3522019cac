import { describe, expect, it } from "vitest";
import { createVapidVerifier, parseVapidAuthorization } from "./vapid-verifier.js";
import { generateVapidTestKeys, signVapidJwt } from "./vapid-token.js";

const origin = "https://127.0.0.1:4443";
const keys = generateVapidTestKeys();

describe("createVapidVerifier", () => {
  it("re-checks the expiry of a cached token against the clock", () => {
    let nowMs = 1_700_000_000_000;
    const verifier = createVapidVerifier({ origin, now: () => nowMs });
    const exp = nowMs / 1000 + 60;
    const header = `vapid t=${signVapidJwt(keys, { aud: origin, exp, sub: "mailto:a@sino.example" })}, k=${keys.publicKey}`;
    expect(verifier.check(header).ok).toBe(true);
    nowMs += 61_000;
    expect(verifier.check(header)).toEqual({ ok: false, reason: "expired", status: 403 });
  });

  it("allows exactly 24 h ahead and no more", () => {
    const nowMs = 1_700_000_000_000;
    const verifier = createVapidVerifier({ origin, now: () => nowMs });
    const token = (exp: number): string => `vapid t=${signVapidJwt(keys, { aud: origin, exp, sub: "https://sino.example/contato" })}, k=${keys.publicKey}`;
    expect(verifier.check(token(nowMs / 1000 + 86_400)).ok).toBe(true);
    expect(verifier.check(token(nowMs / 1000 + 86_401))).toMatchObject({ reason: "exp_too_far" });
  });

  it("does not let a token verified for one key pass with another k", () => {
    const verifier = createVapidVerifier({ origin });
    const jwt = signVapidJwt(keys, { aud: origin, exp: Math.floor(Date.now() / 1000) + 60, sub: "mailto:a@sino.example" });
    expect(verifier.check(`vapid t=${jwt}, k=${keys.publicKey}`).ok).toBe(true);
    expect(verifier.check(`vapid t=${jwt}, k=${generateVapidTestKeys().publicKey}`)).toMatchObject({ reason: "bad_signature" });
  });

  it("matches the expected key by bytes, padded or not", () => {
    const verifier = createVapidVerifier({ origin });
    const jwt = signVapidJwt(keys, { aud: origin, exp: Math.floor(Date.now() / 1000) + 60, sub: "mailto:a@sino.example" });
    const padded = Buffer.from(keys.publicKey, "base64url").toString("base64").replace(/\+/g, "-").replace(/\//g, "_");
    expect(verifier.check(`vapid t=${jwt}, k=${keys.publicKey}`, padded).ok).toBe(true);
  });

  it("answers each header for itself when requests alternate between tokens", () => {
    const verifier = createVapidVerifier({ origin });
    const exp = Math.floor(Date.now() / 1000) + 60;
    const good = `vapid t=${signVapidJwt(keys, { aud: origin, exp, sub: "mailto:a@sino.example" })}, k=${keys.publicKey}`;
    const otherAud = `vapid t=${signVapidJwt(keys, { aud: "https://push.example", exp, sub: "mailto:a@sino.example" })}, k=${keys.publicKey}`;
    expect(verifier.check(good).ok).toBe(true);
    expect(verifier.check(otherAud)).toMatchObject({ reason: "wrong_aud" });
    expect(verifier.check(good).ok).toBe(true);
    expect(verifier.check(good, generateVapidTestKeys().publicKey)).toMatchObject({ reason: "key_mismatch" });
    expect(verifier.check(otherAud)).toMatchObject({ reason: "wrong_aud" });
  });

  it("tells an unreadable header (401) from a readable one whose token is not a JWT (403)", () => {
    const verifier = createVapidVerifier({ origin });
    expect(verifier.check(`WebPush t=a.b.c, k=${keys.publicKey}`)).toEqual({ ok: false, reason: "malformed", status: 401 });
    expect(verifier.check(`vapid t=not-a-jwt, k=${keys.publicKey}`)).toEqual({ ok: false, reason: "malformed", status: 403 });
  });
});

describe("parseVapidAuthorization", () => {
  it("reads t and k in any order and case of the scheme", () => {
    expect(parseVapidAuthorization("Vapid k=K, t=T")).toEqual({ t: "T", k: "K" });
    expect(parseVapidAuthorization("vapid t=T,k=K")).toEqual({ t: "T", k: "K" });
  });
  it("refuses other schemes and missing parameters", () => {
    expect(parseVapidAuthorization("Bearer abc")).toBeNull();
    expect(parseVapidAuthorization("vapid t=T")).toBeNull();
    expect(parseVapidAuthorization("vapid t=, k=K")).toBeNull();
  });
});
