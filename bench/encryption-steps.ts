/**
 * `npx tsx bench/encryption-steps.ts [--iterations 5000]` (Node 24: `node_modules/.bin/node --import tsx …`)
 *
 * Where one RFC 8291 encryption's CPU goes, step by step, with the Node crypto calls Sino's
 * encryptor makes (encrypt.ts), on this thread: CPU time (process.cpuUsage) per call, after a
 * warm-up. The sum is what every encryption thread pays per message, and what the benchmark's
 * ceiling measures as E.
 *
 * The ECDH agreement is also timed with KeyObjects prepared beforehand: `ECDH.computeSecret` checks
 * the ECDH object's own key pair (OpenSSL's EC_KEY_check_key, a second scalar multiplication) on
 * every call, which `crypto.diffieHellman` on KeyObjects does not; but turning a subscriber's raw
 * point into a KeyObject costs about as much again, so per message it does not pay.
 */
import {
  createCipheriv,
  createECDH,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  randomFillSync,
} from "node:crypto";
import { parseArgs } from "node:util";
import { createPayloadEncryptor } from "../src/push/encrypt.js";
import { prepareSubscriberKeys } from "../src/push/subscriber-keys.js";

const { values } = parseArgs({ options: { iterations: { type: "string", default: "5000" } } });
const N = Number(values.iterations);

function cpuUsPerCall(run: () => unknown): number {
  for (let i = 0; i < Math.min(1000, N); i++) run();
  const before = process.cpuUsage();
  for (let i = 0; i < N; i++) run();
  const cpu = process.cpuUsage(before);
  return Math.round(((cpu.user + cpu.system) / N) * 10) / 10;
}

const subscriber = createECDH("prime256v1");
subscriber.generateKeys();
const uaPublic = subscriber.getPublicKey();
const keys = prepareSubscriberKeys({ p256dh: uaPublic.toString("base64url"), auth: randomBytes(16).toString("base64url") });
const sender = createECDH("prime256v1");
sender.generateKeys();
const scalar = Buffer.alloc(32);
const secret = sender.computeSecret(uaPublic);
const salt = randomBytes(16);
const info = Buffer.concat([keys.keyInfoPrefix, sender.getPublicKey()]);
const plaintext = randomBytes(1000);
const cek = randomBytes(16);
const nonce = randomBytes(12);
const jwk = { kty: "EC", crv: "P-256", x: uaPublic.subarray(1, 33).toString("base64url"), y: uaPublic.subarray(33).toString("base64url") };
const senderKeyObject = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
const uaKeyObject = createPublicKey({ key: jwk, format: "jwk" });
const encrypt = createPayloadEncryptor();

const steps: Array<[string, () => unknown]> = [
  ["salt and private key: randomFillSync(48 bytes)", () => randomFillSync(Buffer.alloc(48))],
  ["sender key pair: setPrivateKey + getPublicKey", () => {
    randomFillSync(scalar);
    scalar[0] = 0x7f; // below the curve's order
    sender.setPrivateKey(scalar);
    return sender.getPublicKey();
  }],
  ["ECDH: computeSecret (checks its own key pair)", () => sender.computeSecret(uaPublic)],
  ["three hkdfSync (IKM, CEK, nonce)", () => {
    hkdfSync("sha256", secret, keys.auth, info, 32);
    hkdfSync("sha256", secret, salt, info, 16);
    return hkdfSync("sha256", secret, salt, info, 12);
  }],
  ["AES-128-GCM of 1,000 bytes: createCipheriv … getAuthTag", () => {
    const cipher = createCipheriv("aes-128-gcm", cek, nonce);
    cipher.update(plaintext);
    cipher.final();
    return cipher.getAuthTag();
  }],
  ["whole message: createPayloadEncryptor()", () => encrypt(plaintext, keys)],
  ["(for comparison) diffieHellman on prepared KeyObjects", () => diffieHellman({ privateKey: senderKeyObject, publicKey: uaKeyObject })],
  ["(for comparison) createPublicKey from the subscriber's point (JWK)", () => createPublicKey({ key: jwk, format: "jwk" })],
];

console.log(`Node ${process.version}, OpenSSL ${process.versions.openssl}; CPU µs per call over ${N} calls`);
const result: Record<string, number> = {};
for (const [name, run] of steps) {
  result[name] = cpuUsPerCall(run);
  console.log(`${String(result[name]).padStart(7)} µs  ${name}`);
}
console.log(JSON.stringify(result));
