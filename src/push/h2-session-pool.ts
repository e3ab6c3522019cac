import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from "node:http2";
import type { TLSSocket } from "node:tls";
import type { PushRequest } from "./request.js";
import { transportErrorKind } from "./transport-error.js";
import type { PushResponse, TransportResult } from "./transport.js";

export interface H2SessionPoolOptions {
  readonly origin: string;
  /** Opens a guarded TLS socket that negotiated h2 (or rejects). */
  readonly connect: () => Promise<TLSSocket>;
  readonly maxSessions: number;
  readonly maxStreamsPerSession: number;
  readonly requestTimeoutMs: number;
  readonly maxResponseBodyBytes: number;
  /** Closes a session after this long without streams. */
  readonly idleTimeoutMs: number;
  /** Told of each session opened. */
  readonly onSession?: () => void;
}

interface Entry {
  readonly session: ClientHttp2Session;
  active: number;
  /** GOAWAY received or closing: finishes its streams, takes no new ones. */
  draining: boolean;
}

export interface H2SessionPool {
  /** Adopts the socket the protocol probe already opened, as the first session. */
  adopt(socket: TLSSocket): void;
  request(request: PushRequest): Promise<TransportResult>;
  close(): Promise<void>;
}

const { NGHTTP2_CANCEL } = http2.constants;

/**
 * HTTP/2 to one push-service origin with node:http2 directly. Streams are multiplexed up to the
 * server's SETTINGS_MAX_CONCURRENT_STREAMS per session, with more sessions only when those are
 * full. A GOAWAY (RFC 9113 §6.8) only stops new streams on that session: the ones the server
 * already took finish normally (undici 7 fails them all, which would turn a routine graceful
 * close by FCM into duplicate deliveries), and the ones above its last stream id fail with
 * REFUSED_STREAM and are safe to retry.
 */
export function createH2SessionPool(options: H2SessionPoolOptions): H2SessionPool {
  const entries: Entry[] = [];
  let opening: Promise<Entry> | undefined;
  const waiters: Array<() => void> = [];
  let closed = false;

  function limit(entry: Entry): number {
    const remote = entry.session.remoteSettings.maxConcurrentStreams ?? options.maxStreamsPerSession;
    return Math.min(remote, options.maxStreamsPerSession);
  }

  function add(socket: TLSSocket): Entry {
    const session = http2.connect(options.origin, {
      createConnection: () => socket,
      settings: { enablePush: false },
    });
    const entry: Entry = { session, active: 0, draining: false };
    const retire = () => {
      entry.draining = true;
      const i = entries.indexOf(entry);
      if (i !== -1) entries.splice(i, 1);
      wakeOne();
    };
    session.on("goaway", () => {
      entry.draining = true;
      wakeOne();
    });
    session.on("close", retire);
    session.on("error", retire);
    session.setTimeout(options.idleTimeoutMs, () => {
      if (entry.active === 0) session.close();
    });
    entries.push(entry);
    options.onSession?.();
    return entry;
  }

  function available(): Entry | undefined {
    for (const entry of entries) {
      if (!entry.draining && !entry.session.destroyed && entry.active < limit(entry)) return entry;
    }
    return undefined;
  }

  function wakeOne(): void {
    waiters.shift()?.();
  }

  /** A session with a free stream slot, opening one if allowed; rejects if that connect fails. */
  async function acquire(): Promise<Entry> {
    for (;;) {
      const entry = available();
      if (entry !== undefined) return entry;
      if (opening !== undefined) {
        // Everyone waiting on a connect shares its fate: a dead origin fails its queue at once
        // instead of once per request, one connect timeout after another.
        await opening;
        continue;
      }
      if (entries.filter((e) => !e.draining).length < options.maxSessions) {
        opening = options.connect().then(add);
        try {
          return await opening;
        } finally {
          opening = undefined;
          while (waiters.length > 0) wakeOne();
        }
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  function send(entry: Entry, request: PushRequest): Promise<TransportResult> {
    return new Promise<TransportResult>((resolve) => {
      let stream: ClientHttp2Stream | undefined;
      entry.active++;
      let settled = false;
      const finish = (result: TransportResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        entry.active--;
        wakeOne();
        resolve(result);
      };
      const timer = setTimeout(() => {
        finish({ error: "timeout", message: `no complete answer within ${options.requestTimeoutMs} ms` });
        stream?.close(NGHTTP2_CANCEL);
      }, options.requestTimeoutMs);
      try {
        stream = entry.session.request({ ":method": request.method, ":path": request.path, ...request.headers });
      } catch (error) {
        finish({ error: transportErrorKind(error), message: String(error) });
        return;
      }
      let headers: IncomingHttpHeaders | undefined;
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const done = () => {
        if (headers === undefined) return;
        const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
        const response: PushResponse = { status: Number(headers[":status"]), headers, body, truncated };
        finish(response);
      };
      const live = stream;
      live.on("response", (h) => {
        headers = h;
      });
      live.on("data", (chunk: Buffer) => {
        if (truncated) return;
        if (size + chunk.length > options.maxResponseBodyBytes) {
          chunks.push(chunk.subarray(0, options.maxResponseBodyBytes - size));
          size = options.maxResponseBodyBytes;
          truncated = true;
          done();
          // An endless body is not read further: cancel the stream (RST_STREAM).
          live.close(NGHTTP2_CANCEL);
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      live.on("end", done);
      live.on("error", (error: Error) => finish({ error: transportErrorKind(error), message: error.message }));
      live.on("close", () => {
        if (headers !== undefined) done();
        else finish({ error: "reset", message: `stream closed (code ${live.rstCode}) before a response` });
      });
      live.end(request.body);
    });
  }

  return {
    adopt(socket) {
      add(socket);
    },
    async request(request) {
      if (closed) return { error: "network", message: "transport closed" };
      let entry: Entry;
      try {
        entry = await acquire();
      } catch (error) {
        return { error: transportErrorKind(error), message: error instanceof Error ? error.message : String(error) };
      }
      return send(entry, request);
    },
    async close() {
      closed = true;
      await Promise.all(
        entries.map((entry) => new Promise<void>((resolve) => (entry.session.closed ? resolve() : entry.session.close(() => resolve())))),
      );
    },
  };
}
