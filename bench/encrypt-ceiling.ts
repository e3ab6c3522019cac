/**
 * `npx tsx bench/encrypt-ceiling.ts [--duration ms] [--threads n] [--bytes n]`: prints the
 * encryption-only ceiling (all cores, then one thread) and a JSON line of the figures.
 */
import { parseArgs } from "node:util";
import { measureEncryptionCeiling } from "./encryption-ceiling.js";

const { values } = parseArgs({
  options: {
    duration: { type: "string", default: "3000" },
    threads: { type: "string" },
    bytes: { type: "string", default: "1024" },
  },
});
const durationMs = Number(values.duration);
const payloadBytes = Number(values.bytes);

const all = await measureEncryptionCeiling({
  durationMs,
  payloadBytes,
  ...(values.threads !== undefined ? { threads: Number(values.threads) } : {}),
});
const one = await measureEncryptionCeiling({ durationMs, payloadBytes, threads: 1 });
console.log(`encryption ceiling: ${all.msgsPerSecond} msgs/s on ${all.threads} threads (${payloadBytes}-byte payload)`);
console.log(`single thread:      ${one.msgsPerSecond} msgs/s`);
console.log(JSON.stringify({ ceilingMsgsPerSecond: all.msgsPerSecond, threads: all.threads, singleThreadMsgsPerSecond: one.msgsPerSecond, payloadBytes }));
