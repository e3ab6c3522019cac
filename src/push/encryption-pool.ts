import { availableParallelism } from "node:os";
import { performance } from "node:perf_hooks";
import { Piscina } from "piscina";
import { checkPlaintextLength } from "./encrypt.js";
import type { EncryptBatchResult, EncryptBatchTask } from "./encryption-worker.js";
import type { PushErrorCode } from "./push-error.js";
import type { SubscriberKeys } from "./subscriber-keys.js";
import { workerEntry } from "./worker-entry.js";

export interface EncryptionPoolOptions {
  /** Worker threads; defaults to every core. */
  readonly threads?: number;
}

/** One subscription's encrypted body, or why it could not be made (e.g. `p256dh_invalid`). */
export type BatchItem = Buffer | { readonly error: PushErrorCode };

export interface EncryptionPool {
  readonly threads: number;
  /**
   * Encrypts one plaintext for many subscriptions (a fan-out batch, e.g. 64–256) in a worker.
   * Throws `payload_too_large` at once, before queuing anything.
   */
  encryptBatch(plaintext: Uint8Array | string, keys: readonly SubscriberKeys[]): Promise<BatchItem[]>;
  stats(): EncryptionPoolStats;
  close(): Promise<void>;
}

/** Young generation of each encryption thread (MB; V8 splits it into its semi-spaces). */
const ENCRYPTION_THREAD_YOUNG_GENERATION_MB = 8;

/** How busy the threads are, for metrics: counted per batch task, never per message. */
export interface EncryptionPoolStats {
  readonly threads: number;
  /** Batch tasks handed to the pool and not yet finished (running or queued behind the threads). */
  readonly tasks: number;
  /**
   * Thread-seconds spent busy since the pool started: the time integral of min(tasks, threads).
   * Its rate divided by `threads` is the pool's utilisation (1: every thread always busy).
   */
  readonly busySeconds: number;
  /** Messages encrypted (or refused for bad keys) since the pool started. */
  readonly messages: number;
}

/**
 * RFC 8291 encryption costs one ECDH key generation and one ECDH agreement per message
 * (~0.1 ms): at thousands of messages per second it is the fan-out's main CPU cost, so it runs on
 * worker threads while the main thread keeps the HTTP/2 connections busy.
 */
export function createEncryptionPool(options: EncryptionPoolOptions = {}): EncryptionPool {
  const threads = options.threads ?? availableParallelism();
  const entry = workerEntry(import.meta.url, "encryption-worker");
  const piscina = new Piscina<EncryptBatchTask, EncryptBatchResult>({
    filename: entry.filename.href,
    execArgv: entry.execArgv,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // A thread holds one task at a time (keys in, one buffer of bodies out, transferred): its own
    // young generation, which V8 would otherwise grow like the main thread's (to 2 × 64 MB per
    // thread under a steady fan-out), never needs more than a few MB. No old-generation limit:
    // running out would fail a batch, where a larger heap only costs memory.
    resourceLimits: { maxYoungGenerationSizeMb: ENCRYPTION_THREAD_YOUNG_GENERATION_MB },
  });
  let tasks = 0;
  let busyMs = 0;
  let messages = 0;
  let changedAt = performance.now();
  /** Piscina runs a task as soon as a thread is free, so min(tasks, threads) threads are busy between changes. */
  function account(): void {
    const now = performance.now();
    busyMs += Math.min(tasks, threads) * (now - changedAt);
    changedAt = now;
  }
  return {
    threads,
    async encryptBatch(plaintext, keys) {
      const bytes = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext;
      checkPlaintextLength(bytes.byteLength);
      if (keys.length === 0) return [];
      account();
      tasks++;
      let result: EncryptBatchResult;
      try {
        result = await piscina.run({ plaintext: bytes, keys });
      } finally {
        account();
        tasks--;
      }
      messages += keys.length;
      const items: BatchItem[] = new Array<BatchItem>(keys.length);
      for (let i = 0; i < keys.length; i++) {
        const error = result.errors[i];
        // Views into the one transferred buffer: no copy per message.
        items[i] = error != null ? { error: error as PushErrorCode } : Buffer.from(result.buffer, i * result.bodyLength, result.bodyLength);
      }
      return items;
    },
    stats() {
      account();
      return { threads, tasks, busySeconds: busyMs / 1000, messages };
    },
    close() {
      return piscina.destroy();
    },
  };
}
