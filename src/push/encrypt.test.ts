import { createECDH, randomBytes, type ECDH } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { decodeBase64Url, encodeBase64Url } from "./base64url.js";
import { createPayloadEncryptor, encryptedLength, encryptPayload, MAX_PLAINTEXT_LENGTH, replaceKeyPair, type EncryptionTrace } from "./encrypt.js";
import { prepareSubscriberKeys } from "./subscriber-keys.js";

interface Vector {
  plaintext: string;
  authSecret: string;
  salt: string;
  recordSize: number;
  uaPrivateKey: string;
  uaPublicKey: string;
  asPrivateKey: string;
  asPublicKey: string;
  ecdhSecret: string;
  ikm: string;
  cek: string;
  nonce: string;
  body: string;
  bodyLength: number;
}
const vector = JSON.parse(
  readFileSync(new URL("../../test/fixtures/rfc8291-appendix-a.json", import.meta.url), "utf8"),
) as Vector;

// http_ece is an independent implementation (Mozilla's), used only to check ours.
const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(body: Buffer, params: { version: "aes128gcm"; privateKey: ECDH; authSecret: string }): Buffer;
};

function b(text: string): Buffer {
  const bytes = decodeBase64Url(text);
  if (bytes === undefined) throw new Error(`bad base64url in fixture: ${text}`);
  return bytes;
}

function makeSubscriber() {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, keys: { p256dh: encodeBase64Url(ecdh.getPublicKey()), auth: encodeBase64Url(auth) } };
}

describe("encryptPayload against RFC 8291 Appendix A", () => {
  const keys = { p256dh: vector.uaPublicKey, auth: vector.authSecret };
  const options = { salt: b(vector.salt), senderKeys: { privateKey: b(vector.asPrivateKey) } };

  it("produces the RFC's body byte for byte (144 bytes, not the 145 the RFC's example header says)", () => {
    const body = encryptPayload(vector.plaintext, keys, options);
    expect(encodeBase64Url(body)).toBe(vector.body);
    expect(body.length).toBe(vector.bodyLength);
    expect(body.length).toBe(144);
  });

  it("derives the RFC's ECDH secret, IKM, CEK, nonce and sender key", () => {
    const trace = {} as EncryptionTrace;
    encryptPayload(vector.plaintext, keys, options, trace);
    expect(encodeBase64Url(trace.ecdhSecret)).toBe(vector.ecdhSecret);
    expect(encodeBase64Url(trace.ikm)).toBe(vector.ikm);
    expect(encodeBase64Url(trace.cek)).toBe(vector.cek);
    expect(encodeBase64Url(trace.nonce)).toBe(vector.nonce);
    expect(encodeBase64Url(trace.asPublic)).toBe(vector.asPublicKey);
  });

  it("gives the same body from keys prepared once", () => {
    const prepared = prepareSubscriberKeys(keys);
    expect(encodeBase64Url(encryptPayload(vector.plaintext, prepared, options))).toBe(vector.body);
  });

  it("is decrypted by http_ece with the RFC's receiver key", () => {
    const ua = createECDH("prime256v1");
    ua.setPrivateKey(b(vector.uaPrivateKey));
    const plain = ece.decrypt(b(vector.body), { version: "aes128gcm", privateKey: ua, authSecret: vector.authSecret });
    expect(plain.toString()).toBe(vector.plaintext);
  });
});

describe("encryptPayload interoperates with http_ece", () => {
  it.each([0, 1, 15, 16, 17, 1000, 3992, MAX_PLAINTEXT_LENGTH])("round-trips %i bytes", (size) => {
    const { ecdh, keys } = makeSubscriber();
    const plaintext = randomBytes(size);
    const body = encryptPayload(plaintext, keys);
    expect(body.length).toBe(86 + size + 17);
    expect(body.readUInt32BE(16)).toBe(4096);
    expect(body[20]).toBe(65);
    const plain = ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: keys.auth });
    expect(plain.equals(plaintext)).toBe(true);
  });

  it("fits the largest payload in exactly 4096 bytes", () => {
    expect(MAX_PLAINTEXT_LENGTH).toBe(3993);
    expect(encryptPayload(Buffer.alloc(3993), makeSubscriber().keys).length).toBe(4096);
  });

  it("uses a fresh salt and sender key for every message", () => {
    const { keys } = makeSubscriber();
    const a = encryptPayload("same", keys);
    const b2 = encryptPayload("same", keys);
    expect(a.subarray(0, 16).equals(b2.subarray(0, 16))).toBe(false);
    expect(a.subarray(21, 86).equals(b2.subarray(21, 86))).toBe(false);
  });

  it("is not decryptable with another subscriber's keys", () => {
    const target = makeSubscriber();
    const other = makeSubscriber();
    const body = encryptPayload("secret", target.keys);
    expect(() => ece.decrypt(body, { version: "aes128gcm", privateKey: other.ecdh, authSecret: target.keys.auth })).toThrow();
  });
});

describe("createPayloadEncryptor (one per encryption thread)", () => {
  it("makes bodies http_ece decrypts, with a new sender key and salt for every message of a batch", () => {
    const encrypt = createPayloadEncryptor();
    const subscribers = Array.from({ length: 4 }, makeSubscriber);
    const plaintext = randomBytes(1000);
    const bodies = [...subscribers, ...subscribers].map(({ keys }) => encrypt(plaintext, keys));
    bodies.forEach((body, i) => {
      const { ecdh, keys } = subscribers[i % 4]!;
      expect(body.length).toBe(encryptedLength(1000));
      expect(ece.decrypt(body, { version: "aes128gcm", privateKey: ecdh, authSecret: keys.auth }).equals(plaintext)).toBe(true);
    });
    expect(new Set(bodies.map((body) => body.subarray(21, 86).toString("hex"))).size).toBe(bodies.length);
    expect(new Set(bodies.map((body) => body.subarray(0, 16).toString("hex"))).size).toBe(bodies.length);
  });

  it("writes each body into the caller's buffer at its offset, and keeps working after refusing bad keys", () => {
    const encrypt = createPayloadEncryptor();
    const [a, b3] = [makeSubscriber(), makeSubscriber()];
    const length = encryptedLength(5);
    const out = new Uint8Array(3 * length);
    encrypt(Buffer.from("olá!"), a.keys, out, 0);
    const offCurve = { p256dh: encodeBase64Url(Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)])), auth: a.keys.auth };
    expect(() => encrypt(Buffer.from("olá!"), offCurve, out, length)).toThrow(expect.objectContaining({ code: "p256dh_invalid" }));
    encrypt(Buffer.from("olá!"), b3.keys, out, 2 * length);
    const at = (i: number) => Buffer.from(out.buffer, i * length, length);
    expect(ece.decrypt(at(0), { version: "aes128gcm", privateKey: a.ecdh, authSecret: a.keys.auth }).toString()).toBe("olá!");
    expect(ece.decrypt(at(2), { version: "aes128gcm", privateKey: b3.ecdh, authSecret: b3.keys.auth }).toString()).toBe("olá!");
  });
});

describe("replaceKeyPair (the sender's key for each message)", () => {
  // The order of P-256: a private key must be at least 1 and below it.
  const ORDER = Buffer.from("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", "hex");

  it("makes the pair of the drawn scalar: its public key is the scalar's, and agreement with it works both ways", () => {
    const ecdh = createECDH("prime256v1");
    const scalar = randomBytes(32);
    const publicKey = replaceKeyPair(ecdh, Buffer.from(scalar));
    const reference = createECDH("prime256v1");
    reference.setPrivateKey(scalar);
    expect(publicKey.equals(reference.getPublicKey())).toBe(true);
    const peer = createECDH("prime256v1");
    peer.generateKeys();
    expect(ecdh.computeSecret(peer.getPublicKey()).equals(peer.computeSecret(publicKey))).toBe(true);
  });

  it("draws again when the scalar is 0, the order itself or above it, and only then", () => {
    const ecdh = createECDH("prime256v1");
    const valid = randomBytes(32);
    for (const bad of [Buffer.alloc(32), Buffer.from(ORDER), Buffer.alloc(32, 0xff)]) {
      let draws = 0;
      const publicKey = replaceKeyPair(ecdh, Buffer.from(bad), (buffer) => {
        draws += 1;
        valid.copy(buffer);
      });
      expect(draws).toBe(1);
      const reference = createECDH("prime256v1");
      reference.setPrivateKey(valid);
      expect(publicKey.equals(reference.getPublicKey())).toBe(true);
    }
    // The largest valid scalar (order - 1) is kept as drawn.
    const largest = Buffer.from(ORDER);
    largest[31] = largest[31]! - 1;
    expect(() => replaceKeyPair(ecdh, largest, () => expect.fail("must not draw again"))).not.toThrow();
  });
});

describe("encryptPayload refuses bad input with a code", () => {
  const { keys } = makeSubscriber();

  it("refuses 3994 bytes of plaintext with payload_too_large", () => {
    expect(() => encryptPayload(Buffer.alloc(3994), keys)).toThrow(expect.objectContaining({ code: "payload_too_large" }));
  });

  it("counts UTF-8 bytes, not characters", () => {
    // 2,000 "ç" are 4,000 bytes.
    expect(() => encryptPayload("ç".repeat(2000), keys)).toThrow(expect.objectContaining({ code: "payload_too_large" }));
  });

  it("checks the size before the keys, so nothing is done for an oversize payload", () => {
    expect(() => encryptPayload(Buffer.alloc(5000), { p256dh: "garbage", auth: "x" })).toThrow(
      expect.objectContaining({ code: "payload_too_large" }),
    );
  });

  const offCurve = Buffer.alloc(65, 1);
  offCurve[0] = 4;
  it.each([
    ["a short p256dh", { ...keys, p256dh: encodeBase64Url(Buffer.alloc(33, 2)) }, "p256dh_invalid"],
    ["a p256dh off the curve", { ...keys, p256dh: encodeBase64Url(offCurve) }, "p256dh_invalid"],
    ["a p256dh that is not base64url", { ...keys, p256dh: keys.p256dh + "=" }, "p256dh_invalid"],
    ["a 12-byte auth", { ...keys, auth: encodeBase64Url(Buffer.alloc(12)) }, "auth_invalid"],
    ["an auth with padding", { ...keys, auth: keys.auth + "==" }, "auth_invalid"],
  ])("refuses %s", (_name, bad, code) => {
    expect(() => encryptPayload("hi", bad)).toThrow(expect.objectContaining({ code }));
  });
});
