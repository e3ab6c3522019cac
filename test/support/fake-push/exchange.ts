import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { constants as h2, type IncomingHttpHeaders, type ServerHttp2Stream } from "node:http2";
import type { HttpProtocol } from "./stats.js";

/**
 * One request/response over HTTP/2 or HTTP/1.1, behind the few operations the fake needs. HTTP/2
 * is served from the raw `ServerHttp2Stream` (the compat API's req/res wrappers cost about a third
 * more CPU per request); HTTP/1.1 from node:http's req/res. They differ in the ways to break
 * things (reset a stream vs. a socket) and to end a connection gracefully (GOAWAY vs.
 * `Connection: close`).
 */
export interface Exchange {
  readonly protocol: HttpProtocol;
  readonly method: string;
  readonly url: string;
  header(name: string): string | undefined;
  /** An object that identifies the connection (for per-connection counters). */
  readonly connection: object;
  readBody(limit: number): Promise<{ body: Buffer; length: number }>;
  /** Sends the response unless the exchange is already closed. The exchange may add to `headers`. */
  respond(status: number, headers?: OutgoingHttpHeaders, body?: string | Buffer): void;
  /** After this response, close the connection gracefully. */
  closeConnectionAfterResponse(): void;
  resetRequest(): void;
  resetConnection(): void;
  endlessBody(status: number): void;
  /** Runs `listener` once the exchange is over (answered, reset or abandoned by the client). */
  onClose(listener: () => void): void;
}

const ENDLESS_CHUNK = Buffer.alloc(16 * 1024, 0x2e);
const EMPTY = Buffer.alloc(0);

/** Collects a request body up to `limit` bytes; past it the bytes are counted and dropped (the answer will be 413). */
class BodyReader {
  private readonly chunks: Buffer[] = [];
  length = 0;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    this.length += chunk.length;
    if (this.length <= this.limit) this.chunks.push(chunk);
  }

  result(): { body: Buffer; length: number } {
    const { chunks, length } = this;
    if (length > this.limit) return { body: EMPTY, length };
    // One DATA frame is the usual case: no copy then.
    return { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length), length };
  }
}

function ignoreError(): void {
  // Errors on a stream end it, and its `close` is what the fake acts on. Without a listener an
  // 'error' event (e.g. a client's RST_STREAM with an error code) would crash the process.
}

/** An HTTP/2 request on its raw stream. */
export class H2Exchange implements Exchange {
  readonly protocol = "h2" as const;
  readonly method: string;
  readonly url: string;
  readonly connection: object;
  private closeAfter = false;
  private closed = false;
  /** Set while `readBody` waits for the end of the body. */
  private bodyAborted: ((error: Error) => void) | undefined;
  private closeListeners: (() => void)[] | undefined;

  constructor(
    private readonly stream: ServerHttp2Stream,
    private readonly headers: IncomingHttpHeaders,
  ) {
    this.method = headers[":method"] ?? "GET";
    this.url = headers[":path"] ?? "/";
    this.connection = stream.session ?? stream;
    stream.on("error", ignoreError);
    // One listener for everything that waits on the end of the stream (each listener costs; `on`,
    // not `once`: a stream closes once, and removing a listener costs too).
    stream.on("close", () => this.onStreamClose());
  }

  private onStreamClose(): void {
    this.closed = true;
    this.bodyAborted?.(new Error("request aborted"));
    if (this.closeListeners !== undefined) for (const listener of this.closeListeners) listener();
  }

  header(name: string): string | undefined {
    const value = this.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  readBody(limit: number): Promise<{ body: Buffer; length: number }> {
    const stream = this.stream;
    return new Promise((resolve, reject) => {
      if (this.closed) {
        reject(new Error("request aborted"));
        return;
      }
      const reader = new BodyReader(limit);
      // Closed before `end`: the client reset the stream or the session died.
      this.bodyAborted = reject;
      stream.on("data", (chunk: Buffer) => reader.add(chunk));
      stream.on("end", () => {
        this.bodyAborted = undefined;
        resolve(reader.result());
      });
    });
  }

  respond(status: number, headers: OutgoingHttpHeaders = {}, body?: string | Buffer): void {
    const stream = this.stream;
    if (this.closed || stream.closed || stream.destroyed) return;
    headers[":status"] = status;
    if (body === undefined) {
      stream.respond(headers, { endStream: true });
    } else {
      stream.respond(headers);
      stream.end(body);
    }
    // GOAWAY: streams in progress finish, new ones go to a new connection (RFC 9113 §6.8).
    if (this.closeAfter) stream.session?.close();
  }

  closeConnectionAfterResponse(): void {
    this.closeAfter = true;
  }

  resetRequest(): void {
    this.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  }

  resetConnection(): void {
    this.stream.session?.destroy();
  }

  endlessBody(status: number): void {
    const stream = this.stream;
    if (this.closed || stream.closed || stream.destroyed) return;
    stream.respond({ ":status": status, "content-type": "application/octet-stream" });
    const pump = (): void => {
      while (!this.closed && !stream.destroyed && stream.write(ENDLESS_CHUNK)) {
        // keep writing until the client's window is full
      }
    };
    stream.on("drain", pump);
    pump();
  }

  onClose(listener: () => void): void {
    // `close` comes once the stream is answered, reset, or its session gone.
    if (this.closed) listener();
    else (this.closeListeners ??= []).push(listener);
  }
}

/** An HTTP/1.1 request through node:http. */
export class H1Exchange implements Exchange {
  readonly protocol = "http/1.1" as const;
  readonly method: string;
  readonly url: string;
  readonly connection: object;
  private closed = false;
  private closeAfter = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method ?? "GET";
    this.url = req.url ?? "/";
    this.connection = req.socket;
    res.once("close", () => {
      this.closed = true;
    });
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  readBody(limit: number): Promise<{ body: Buffer; length: number }> {
    const req = this.req;
    return new Promise((resolve, reject) => {
      const reader = new BodyReader(limit);
      req.on("data", (chunk: Buffer) => reader.add(chunk));
      req.once("end", () => resolve(reader.result()));
      req.once("error", reject);
      req.once("aborted", () => reject(new Error("request aborted")));
    });
  }

  respond(status: number, headers: OutgoingHttpHeaders = {}, body?: string | Buffer): void {
    if (this.closed) return;
    if (this.closeAfter) headers.connection = "close";
    this.res.writeHead(status, headers);
    this.res.end(body);
  }

  closeConnectionAfterResponse(): void {
    this.closeAfter = true;
  }

  resetRequest(): void {
    // HTTP/1.1 has no way to reset one request: the connection goes.
    this.req.socket.destroy();
  }

  resetConnection(): void {
    this.req.socket.destroy();
  }

  endlessBody(status: number): void {
    const res = this.res;
    res.writeHead(status, { "content-type": "application/octet-stream" });
    const pump = (): void => {
      while (!this.closed && res.write(ENDLESS_CHUNK)) {
        // keep writing until the socket buffer is full
      }
    };
    res.on("drain", pump);
    pump();
  }

  onClose(listener: () => void): void {
    if (this.closed) listener();
    else this.res.once("close", listener);
  }
}
