import { availableParallelism } from "node:os";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../push/retry-policy.js";

export interface DeliveryOptions {
  /**
   * Concurrent lanes per worker process. Each holds one range job and has up to `batchSize`
   * pushes in flight; while one lane commits its checkpoint the others keep the connections busy.
   */
  readonly lanes: number;
  /** Subscriptions a lane reads, encrypts and sends at once, between two checkpoints. */
  readonly batchSize: number;
  /** Subscription ids per range job (a notification of 1,000,000 makes about 1,000 job rows). */
  readonly jobSize: number;
  /**
   * How long a claimed job stays ours without a checkpoint. A worker killed mid-send loses its
   * jobs to the next worker after this long; it must well exceed one sub-batch's duration.
   */
  readonly leaseMs: number;
  /** How often an idle lane looks for work (a notification made in this process wakes it at once). */
  readonly pollMs: number;
  /** Encryption worker threads; 0 encrypts on the main thread. */
  readonly encryptionThreads: number;
  readonly retryPolicy: RetryPolicy;
}

export function defaultDeliveryOptions(): DeliveryOptions {
  return {
    lanes: 4,
    batchSize: 250,
    jobSize: 1000,
    leaseMs: 60_000,
    pollMs: 1000,
    encryptionThreads: availableParallelism(),
    retryPolicy: DEFAULT_RETRY_POLICY,
  };
}

export function resolveDeliveryOptions(options: Partial<DeliveryOptions> = {}): DeliveryOptions {
  const resolved = { ...defaultDeliveryOptions(), ...options };
  for (const key of ["lanes", "batchSize", "jobSize", "leaseMs", "pollMs"] as const) {
    if (!Number.isInteger(resolved[key]) || resolved[key] < 1) throw new RangeError(`${key} must be a positive integer`);
  }
  if (!Number.isInteger(resolved.encryptionThreads) || resolved.encryptionThreads < 0) {
    throw new RangeError("encryptionThreads must be 0 or more");
  }
  return Object.freeze(resolved);
}
