/**
 * Reads until `ok` holds, pausing `everyMs` between reads; after `timeoutMs` it throws with the
 * last value read, so a stuck condition says what it saw.
 */
export async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, { timeoutMs = 10_000, everyMs = 20 } = {}): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
