import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import { constants as h2, Http2ServerRequest, type Http2ServerResponse } from "node:http2";
import type { HttpProtocol } from "./stats.js";

/**
 * One request/response over HTTP/2 or HTTP/1.1, behind the few operations the fake needs. The
 * compat API gives both protocols the same req/res shape, except for the ways to break things
 * (reset a stream vs. a socket) and to end a connection gracefully (GOAWAY vs. Connection: close).
 */
export interface Exchange {
  readonly protocol: HttpProtocol;
  readonly method: string;
  readonly url: string;
  header(name: string): string | undefined;
  /** An object that identifies the connection (for per-connection counters). */
  readonly connection: object;
  readBody(limit: number): Promise<{ body: Buffer; length: number }>;
  respond(status: number, headers?: OutgoingHttpHeaders, body?: string | Buffer): void;
  /** After this response, close the connection gracefully. */
  closeConnectionAfterResponse(): void;
  resetRequest(): void;
  resetConnection(): void;
  endlessBody(status: number): void;
  onClose(listener: () => void): void;
}

const ENDLESS_CHUNK = Buffer.alloc(16 * 1024, 0x2e);

export function toExchange(req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse): Exchange {
  const isH2 = req instanceof Http2ServerRequest;
  let closed = false;
  let closeAfter = false;
  const closeListeners: (() => void)[] = [];
  res.once("close", () => {
    closed = true;
    for (const listener of closeListeners) listener();
  });
  const connection: object = isH2 ? req.stream.session ?? req : (req as IncomingMessage).socket;

  return {
    protocol: isH2 ? "h2" : "http/1.1",
    method: req.method ?? "GET",
    url: req.url ?? "/",
    header(name) {
      const value = req.headers[name];
      return Array.isArray(value) ? value.join(", ") : value;
    },
    connection,
    readBody(limit) {
      return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        let length = 0;
        req.on("data", (chunk: Buffer) => {
          length += chunk.length;
          // Past the limit the bytes are counted and dropped: the answer will be 413 anyway.
          if (length <= limit) chunks.push(chunk);
        });
        req.once("end", () => resolve({ body: length <= limit ? Buffer.concat(chunks, length) : Buffer.alloc(0), length }));
        req.once("error", reject);
        req.once("aborted", () => reject(new Error("request aborted")));
      });
    },
    respond(status, headers = {}, body) {
      if (closed) return;
      if (closeAfter && !isH2) headers = { ...headers, connection: "close" };
      (res as ServerResponse).writeHead(status, headers);
      (res as ServerResponse).end(body);
      if (closeAfter && isH2) {
        // GOAWAY: streams in progress finish, new ones go to a new connection (RFC 9113 §6.8).
        req.stream.session?.close();
      }
    },
    closeConnectionAfterResponse() {
      closeAfter = true;
    },
    resetRequest() {
      if (isH2) req.stream.close(h2.NGHTTP2_INTERNAL_ERROR);
      else (req as IncomingMessage).socket.destroy();
    },
    resetConnection() {
      if (isH2) req.stream.session?.destroy();
      else (req as IncomingMessage).socket.destroy();
    },
    endlessBody(status) {
      const out = res as ServerResponse;
      out.writeHead(status, { "content-type": "application/octet-stream" });
      const pump = (): void => {
        while (!closed && out.write(ENDLESS_CHUNK)) {
          // keep writing until the client's window (or the socket buffer) is full
        }
      };
      out.on("drain", pump);
      pump();
    },
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
  };
}
