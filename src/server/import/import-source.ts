import { pipeline, Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { ImportError } from "./import-error.js";

/** An import file as bytes: its first bytes already read (to tell the format), then the rest. */
export interface PeekedBytes {
  readonly head: Buffer;
  readonly rest: AsyncIterable<Buffer>;
}

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** How much is read ahead to tell a format: a CSV header fits in far less. */
const PEEK_BYTES = 64 * 1024;

/**
 * The file's bytes, gunzipped when they are gzip (OneSignal hands its export out as `.csv.gz`),
 * counted after decompression: over `maxBytes` the import stops with `import_too_large`, so neither
 * a huge upload nor a small gzip bomb can run the server out of disk time or memory.
 */
export async function* importBytes(source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>, maxBytes: number, onBytes?: (total: number) => void): AsyncGenerator<Buffer> {
  const { head, rest } = await peek(asBuffers(source), 2);
  if (head.length === 0) return;
  const whole = concat(head, rest);
  const plain = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1] ? gunzip(whole) : whole;
  let total = 0;
  try {
    for await (const chunk of plain) {
      total += chunk.length;
      if (total > maxBytes) throw new ImportError("import_too_large");
      onBytes?.(total);
      yield chunk;
    }
  } catch (error) {
    // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR): it said gzip, but it is not a whole gzip file.
    if (isZlibError(error)) throw new ImportError("import_format_unknown");
    throw error;
  }
}

function isZlibError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("Z_");
}

/** Reads until `head` holds at least `atLeast` bytes (or the source ends). */
export async function peek(source: AsyncIterable<Buffer>, atLeast: number = PEEK_BYTES, enough?: (head: Buffer) => boolean): Promise<PeekedBytes> {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < atLeast) {
    if (enough !== undefined && chunks.length > 0 && enough(Buffer.concat(chunks))) break;
    const next = await iterator.next();
    if (next.done === true) break;
    chunks.push(next.value);
    length += next.value.length;
  }
  return { head: Buffer.concat(chunks), rest: { [Symbol.asyncIterator]: () => iterator } };
}

export async function* concat(head: Buffer, rest: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  if (head.length > 0) yield head;
  yield* rest;
}

async function* asBuffers(source: AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>): AsyncGenerator<Buffer> {
  for await (const chunk of source) yield typeof chunk === "string" ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

function gunzip(source: AsyncIterable<Buffer>): AsyncIterable<Buffer> {
  // pipeline() destroys the gunzip stream when the source fails, so the error reaches our reader;
  // a corrupt gzip file fails the same way (the callback only keeps the error from going unhandled).
  return pipeline(Readable.from(source), createGunzip(), () => undefined) as AsyncIterable<Buffer>;
}
