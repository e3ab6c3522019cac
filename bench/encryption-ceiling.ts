import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../src/push/worker-entry.js";

export interface EncryptionCeilingOptions {
  readonly durationMs?: number;
  /** Defaults to every core. */
  readonly threads?: number;
  /** Plaintext size; ~1 KB is a typical notification with title, body, icon and link. */
  readonly payloadBytes?: number;
}

export interface EncryptionCeiling {
  readonly threads: number;
  readonly payloadBytes: number;
  readonly messages: number;
  readonly seconds: number;
  readonly msgsPerSecond: number;
}

/**
 * The machine's encryption-only ceiling: RFC 8291 encryptions per second (fresh ephemeral key
 * per message, distinct recipients) with `threads` workers doing nothing else. A sender that also
 * does I/O can only approach it; the benchmark reports Sino's rate as a fraction of it.
 */
export async function measureEncryptionCeiling(options: EncryptionCeilingOptions = {}): Promise<EncryptionCeiling> {
  const threads = options.threads ?? availableParallelism();
  const durationMs = options.durationMs ?? 3_000;
  const payloadBytes = options.payloadBytes ?? 1024;
  const entry = workerEntry(import.meta.url, "encryption-ceiling-worker");
  const workers = Array.from(
    { length: threads },
    () => new Worker(entry.evalSource, { eval: true, execArgv: entry.execArgv, workerData: { payloadBytes } }),
  );
  try {
    await Promise.all(workers.map((w) => nextMessage(w)));
    const started = performance.now();
    const counts = await Promise.all(
      workers.map((w) => {
        const done = nextMessage(w);
        w.postMessage(durationMs);
        return done as Promise<number>;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const messages = counts.reduce((a, b) => a + b, 0);
    return { threads, payloadBytes, messages, seconds, msgsPerSecond: Math.round(messages / seconds) };
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

function nextMessage(worker: Worker): Promise<unknown> {
  return new Promise((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}
