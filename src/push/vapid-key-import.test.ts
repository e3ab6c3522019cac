import { createECDH, createPublicKey, generateKeyPairSync, verify, sign } from "node:crypto";
import { describe, expect, it } from "vitest";
import { importVapidKeys, type VapidKeyImportCode } from "./vapid-key-import.js";
import { parseVapidKeys } from "./vapid-keys.js";

/** A key pair as `web-push generate-vapid-keys --json` prints it, made here. */
function webPushPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const d = ecdh.getPrivateKey();
  const padded = Buffer.concat([Buffer.alloc(32 - d.length), d]);
  return { publicKey: ecdh.getPublicKey().toString("base64url"), privateKey: padded.toString("base64url") };
}

function ecPemPair(type: "sec1" | "pkcs8"): { pem: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const jwk = publicKey.export({ format: "jwk" });
  const point = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x!, "base64url"), Buffer.from(jwk.y!, "base64url")]);
  return { pem: privateKey.export({ format: "pem", type }) as string, publicKey: point.toString("base64url") };
}

function codeOf(text: string): VapidKeyImportCode | undefined {
  try {
    importVapidKeys(text);
    return undefined;
  } catch (error) {
    return (error as { code?: VapidKeyImportCode }).code;
  }
}

/** The imported pair signs, and the public key it derived verifies that signature. */
function expectWorkingPair(keys: { publicKey: string; privateKey: string }): void {
  const parsed = parseVapidKeys(keys);
  const signature = sign("sha256", Buffer.from("x"), { key: parsed.privateKeyObject, dsaEncoding: "ieee-p1363" });
  const point = Buffer.from(keys.publicKey, "base64url");
  const pub = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
    format: "jwk",
  });
  expect(verify("sha256", Buffer.from("x"), { key: pub, dsaEncoding: "ieee-p1363" }, signature)).toBe(true);
}

describe("importVapidKeys", () => {
  it("reads web-push's JSON and checks the public key against the private one", () => {
    const pair = webPushPair();
    const imported = importVapidKeys(JSON.stringify(pair, null, 2));
    expect(imported).toEqual({ ...pair, format: "web-push-json" });
    expectWorkingPair(imported);
  });

  it("reads a SEC1 PEM (BEGIN EC PRIVATE KEY) and derives its public key", () => {
    const { pem, publicKey } = ecPemPair("sec1");
    expect(pem).toContain("BEGIN EC PRIVATE KEY");
    const imported = importVapidKeys(pem);
    expect(imported.format).toBe("pem");
    expect(imported.publicKey).toBe(publicKey);
    expectWorkingPair(imported);
  });

  it("reads a PKCS#8 PEM (BEGIN PRIVATE KEY)", () => {
    const { pem, publicKey } = ecPemPair("pkcs8");
    expect(pem).toContain("BEGIN PRIVATE KEY");
    const imported = importVapidKeys(`\n${pem}\n`);
    expect(imported.publicKey).toBe(publicKey);
    expectWorkingPair(imported);
  });

  it("reads a base64url private key alone (and padded standard base64) and derives the public key", () => {
    const pair = webPushPair();
    expect(importVapidKeys(pair.privateKey)).toEqual({ ...pair, format: "base64url" });
    const standard = Buffer.from(pair.privateKey, "base64url").toString("base64");
    expect(importVapidKeys(standard).publicKey).toBe(pair.publicKey);
  });

  it("refuses a public key that does not belong to the private key", () => {
    const a = webPushPair();
    const b = webPushPair();
    expect(codeOf(JSON.stringify({ publicKey: b.publicKey, privateKey: a.privateKey }))).toBe("vapid_key_mismatch");
  });

  it("refuses a public key off the curve, in JSON and inside a PEM", () => {
    const pair = webPushPair();
    const point = Buffer.from(pair.publicKey, "base64url");
    point[64]! ^= 1; // y no longer matches x: not on P-256
    expect(codeOf(JSON.stringify({ publicKey: point.toString("base64url"), privateKey: pair.privateKey }))).toBe("vapid_key_off_curve");
    expect(codeOf(JSON.stringify({ publicKey: "BAAA", privateKey: pair.privateKey }))).toBe("vapid_key_off_curve");

    const { privateKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    const der = Buffer.from(privateKey.export({ format: "der", type: "sec1" }));
    der[der.length - 1]! ^= 1;
    const pem = `-----BEGIN EC PRIVATE KEY-----\n${der.toString("base64")}\n-----END EC PRIVATE KEY-----\n`;
    expect(codeOf(pem)).toBe("vapid_key_off_curve");
  });

  it("refuses private scalars that are zero, too large or of the wrong length", () => {
    expect(codeOf(Buffer.alloc(32).toString("base64url"))).toBe("vapid_key_private_invalid");
    expect(codeOf(Buffer.alloc(32, 0xff).toString("base64url"))).toBe("vapid_key_private_invalid");
    expect(codeOf(Buffer.alloc(31, 1).toString("base64url"))).toBe("vapid_key_private_invalid");
  });

  it("says when only a public key was given", () => {
    const pair = webPushPair();
    expect(codeOf(pair.publicKey)).toBe("vapid_key_public_only");
    expect(codeOf(JSON.stringify({ publicKey: pair.publicKey }))).toBe("vapid_key_public_only");
    const spki = generateKeyPairSync("ec", { namedCurve: "prime256v1" }).publicKey.export({ format: "pem", type: "spki" }) as string;
    expect(codeOf(spki)).toBe("vapid_key_public_only");
  });

  it("refuses keys of other types and curves", () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    const p384 = generateKeyPairSync("ec", { namedCurve: "secp384r1" }).privateKey.export({ format: "pem", type: "sec1" }) as string;
    const ed = generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }) as string;
    expect(codeOf(rsa)).toBe("vapid_key_not_p256");
    expect(codeOf(p384)).toBe("vapid_key_not_p256");
    expect(codeOf(ed)).toBe("vapid_key_not_p256");
  });

  it("refuses text that is none of the formats, without echoing it", () => {
    for (const text of ["", "   ", "not a key!", "{", "[1,2]", '{"privateKey":5}', "-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----", "x".repeat(5000)]) {
      expect(codeOf(text), text.slice(0, 20)).toBe("vapid_key_unreadable");
    }
    const pair = webPushPair();
    try {
      importVapidKeys(JSON.stringify({ publicKey: webPushPair().publicKey, privateKey: pair.privateKey }));
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(pair.privateKey);
    }
  });
});
