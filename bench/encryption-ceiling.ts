import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { workerEntry } from "../src/push/worker-entry.js";
import type { CeilingWorkerResult } from "./encryption-ceiling-worker.js";

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
  /**
   * CPU time of one encryption, µs: the whole process's CPU (every thread) over the measured
   * window, divided by the messages. The encryption threads are all that runs then, but V8 runs
   * their garbage collection partly on its own helper threads: those count, as they count in
   * Sino's CPU per push. CPU time, not wall time, so a thread that waited for a core does not count
   * the wait. This is the E of the benchmark's CPU efficiency.
   */
  readonly cpuUsPerMessage: number;
  /** The same from the encryption threads' own CPU only (process.threadCpuUsage), without V8's helpers. */
  readonly threadCpuUsPerMessage: number;
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
    const cpuBefore = process.cpuUsage();
    const results = await Promise.all(
      workers.map((w) => {
        const done = nextMessage(w);
        w.postMessage(durationMs);
        return done as Promise<CeilingWorkerResult>;
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const processCpu = process.cpuUsage(cpuBefore);
    const messages = results.reduce((sum, r) => sum + r.messages, 0);
    const cpuUs = results.reduce((sum, r) => sum + r.cpuUs, 0);
    return {
      threads,
      payloadBytes,
      messages,
      seconds,
      msgsPerSecond: Math.round(messages / seconds),
      cpuUsPerMessage: Math.round(((processCpu.user + processCpu.system) / messages) * 10) / 10,
      threadCpuUsPerMessage: Math.round((cpuUs / messages) * 10) / 10,
    };
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
