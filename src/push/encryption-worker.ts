import { Piscina } from "piscina";
import { createPayloadEncryptor, encryptedLength } from "./encrypt.js";
import { isPushError } from "./push-error.js";
import type { SubscriberKeys } from "./subscriber-keys.js";

export interface EncryptBatchTask {
  readonly plaintext: Uint8Array;
  readonly keys: readonly SubscriberKeys[];
}

/**
 * Every body of a batch in one ArrayBuffer (bodies of one plaintext all have the same length),
 * so the result crosses back to the main thread as one transfer, not one clone per message.
 * `errors[i]` is set (and body i left unusable) when subscription i could not be encrypted for.
 */
export interface EncryptBatchResult {
  readonly buffer: ArrayBuffer;
  readonly bodyLength: number;
  readonly errors: ReadonlyArray<string | null>;
}

// One per worker thread: its ECDH object is regenerated for every message.
const encrypt = createPayloadEncryptor();

export default function encryptBatch(task: EncryptBatchTask): EncryptBatchResult {
  const plaintext = task.plaintext;
  const bodyLength = encryptedLength(plaintext.byteLength);
  const out = new Uint8Array(new ArrayBuffer(bodyLength * task.keys.length));
  const errors: Array<string | null> = new Array<string | null>(task.keys.length).fill(null);
  for (let i = 0; i < task.keys.length; i++) {
    try {
      encrypt(plaintext, task.keys[i]!, out, i * bodyLength);
    } catch (error) {
      if (!isPushError(error)) throw error;
      errors[i] = error.code;
    }
  }
  const result: EncryptBatchResult = { buffer: out.buffer, bodyLength, errors };
  // Piscina's transferable protocol: hand the buffer over instead of copying it.
  const movable = { [Piscina.transferableSymbol]: [out.buffer], [Piscina.valueSymbol]: result };
  return Piscina.move(movable as unknown as Parameters<typeof Piscina.move>[0]) as unknown as EncryptBatchResult;
}
