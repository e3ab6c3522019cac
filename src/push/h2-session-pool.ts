import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from "node:http2";
import type { TLSSocket } from "node:tls";
import { createFifoQueue } from "./fifo-queue.js";
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
  /** How long a new session may take to send its SETTINGS. */
  readonly settingsTimeoutMs: number;
  /** Closes a session after this long without streams. */
  readonly idleTimeoutMs: number;
  /** Told of each session opened. */
  readonly onSession?: () => void;
}

interface Entry {
  readonly session: ClientHttp2Session;
  active: number;
  /** performance.now() when `active` last fell to 0. */
  idleSince: number;
  /** GOAWAY received or closing: finishes its streams, takes no new ones. */
  draining: boolean;
}

export interface H2SessionPool {
  /** Adopts the socket the protocol probe already opened, as the first session. */
  adopt(socket: TLSSocket): Promise<void>;
  request(request: PushRequest): Promise<TransportResult>;
  close(): Promise<void>;
}

const { NGHTTP2_CANCEL, NGHTTP2_REFUSED_STREAM } = http2.constants;
const REFUSED: TransportResult = { error: "reset", message: "stream refused" };
const REFUSED_FAILURE: TransportResult = { error: "reset", message: "stream refused three times" };

/**
 * One request/response on an HTTP/2 stream: collects the answer (body capped), and settles exactly
 * once with the response or a failure. A class with methods rather than closures: one object per
 * push, at thousands of pushes per second.
 */
class StreamExchange {
  private stream: ClientHttp2Stream | undefined;
  private headers: IncomingHttpHeaders | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  private truncated = false;
  private settle: ((result: TransportResult) => void) | undefined;

  constructor(
    private readonly session: ClientHttp2Session,
    private readonly maxBodyBytes: number,
    /** performance.now() after which the pool's sweep times this exchange out. */
    readonly deadline: number,
    settle: (result: TransportResult) => void,
  ) {
    this.settle = settle;
  }

  get settled(): boolean {
    return this.settle === undefined;
  }

  start(request: PushRequest): void {
    let stream: ClientHttp2Stream;
    try {
      stream = this.session.request({ ":method": request.method, ":path": request.path, ...request.headers });
    } catch (error) {
      this.finish({ error: transportErrorKind(error), message: String(error) });
      return;
    }
    this.stream = stream;
    stream.on("response", (headers) => {
      this.headers = headers;
    });
    stream.on("data", (chunk: Buffer) => this.data(chunk));
    // A refused stream also emits "error"; "close" (with its code) decides what it was.
    stream.on("error", (error: Error) => {
      if (stream.rstCode !== NGHTTP2_REFUSED_STREAM) this.finish({ error: transportErrorKind(error), message: error.message });
    });
    // "close" follows the end of the response body (or a reset): the answer is complete.
    stream.on("close", () => this.closed(stream.rstCode));
    stream.end(request.body);
  }

  expire(timeoutMs: number): void {
    const stream = this.stream;
    this.finish({ error: "timeout", message: `no complete answer within ${timeoutMs} ms` });
    stream?.close(NGHTTP2_CANCEL);
  }

  private data(chunk: Buffer): void {
    if (this.settled) return;
    if (this.size + chunk.length > this.maxBodyBytes) {
      const stream = this.stream!;
      this.chunks.push(chunk.subarray(0, this.maxBodyBytes - this.size));
      this.size = this.maxBodyBytes;
      this.truncated = true;
      this.respond();
      // An endless body is not read further: cancel the stream (RST_STREAM).
      stream.close(NGHTTP2_CANCEL);
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
  }

  private closed(rstCode: number): void {
    if (this.settled) return;
    if (this.headers !== undefined) this.respond();
    else if (rstCode === NGHTTP2_REFUSED_STREAM) this.finish(REFUSED);
    else this.finish({ error: "reset", message: `stream closed (code ${rstCode}) before a response` });
  }

  private respond(): void {
    const headers = this.headers!;
    const body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    const response: PushResponse = { status: Number(headers[":status"]), headers, body, truncated: this.truncated };
    this.finish(response);
  }

  private finish(result: TransportResult): void {
    const settle = this.settle;
    if (settle === undefined) return;
    // The pool's deadline queue may hold this object until the requests before it finish: keep
    // nothing heavy (stream, body, headers, the caller's promise) once it has settled.
    this.settle = undefined;
    this.stream = undefined;
    this.headers = undefined;
    this.chunks = [];
    settle(result);
  }
}

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

  /**
   * Starts a session on `socket` and resolves once the server's SETTINGS have arrived: until then
   * its stream limit is unknown, and streams over it would be refused (REFUSED_STREAM).
   */
  function add(socket: TLSSocket): Promise<Entry> {
    const session = http2.connect(options.origin, {
      createConnection: () => socket,
      settings: { enablePush: false },
    });
    const entry: Entry = { session, active: 0, idleSince: performance.now(), draining: false };
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
    // Idle sessions are closed by the pool's idle check, not session.setTimeout: a session timeout
    // is refreshed (a timer list operation) on every frame of every stream, thousands per second.
    idleChecker ??= setInterval(closeIdle, Math.max(10, Math.floor(options.idleTimeoutMs / 2))).unref();
    return new Promise<Entry>((resolve, reject) => {
      const timer = setTimeout(() => {
        session.destroy();
        reject(Object.assign(new Error("no HTTP/2 SETTINGS from the server"), { code: "ETIMEDOUT" }));
      }, options.settingsTimeoutMs);
      session.once("remoteSettings", () => {
        clearTimeout(timer);
        entries.push(entry);
        options.onSession?.();
        resolve(entry);
      });
      session.once("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      session.once("close", () => {
        clearTimeout(timer);
        reject(Object.assign(new Error("HTTP/2 session closed before its SETTINGS"), { code: "ECONNRESET" }));
      });
    });
  }

  let idleChecker: NodeJS.Timeout | undefined;

  /** Closes the sessions without a stream for `idleTimeoutMs` (checked every half of it). */
  function closeIdle(): void {
    const now = performance.now();
    for (const entry of entries) {
      if (entry.active === 0 && !entry.draining && now - entry.idleSince >= options.idleTimeoutMs) {
        entry.draining = true; // takes no new stream while it closes
        entry.session.close();
      }
    }
    if (entries.length === 0) {
      clearInterval(idleChecker);
      idleChecker = undefined;
    }
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

  /**
   * Reserves a stream slot on a session, opening one if allowed; rejects if that connect fails.
   * The slot is counted here, synchronously with the check, so concurrent callers cannot all
   * see the same free slot.
   */
  async function acquire(): Promise<Entry> {
    for (;;) {
      const entry = available();
      if (entry !== undefined) {
        entry.active++;
        return entry;
      }
      if (opening !== undefined) {
        // Everyone waiting on a connect shares its fate: a dead origin fails its queue at once
        // instead of once per request, one connect timeout after another.
        await opening;
        continue;
      }
      if (entries.filter((e) => !e.draining).length < options.maxSessions) {
        opening = options.connect().then(add);
        try {
          const opened = await opening;
          opened.active++;
          return opened;
        } finally {
          opening = undefined;
          while (waiters.length > 0) wakeOne();
        }
      }
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  }

  // Request deadlines: one sweep timer per pool instead of a timer per stream. The timeout is the
  // same for every request, so deadlines are queued in order and the sweep only looks at the head.
  const deadlines = createFifoQueue<StreamExchange>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweepEveryMs = Math.max(10, Math.min(1_000, Math.floor(options.requestTimeoutMs / 4)));

  function sweep(): void {
    const now = performance.now();
    for (let head = deadlines.peek(); head !== undefined && (head.settled || head.deadline <= now); head = deadlines.peek()) {
      deadlines.shift();
      if (!head.settled) head.expire(options.requestTimeoutMs);
    }
    if (deadlines.size === 0) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  }

  /** Sends on a slot `acquire` reserved; frees it when the exchange ends. */
  function send(entry: Entry, request: PushRequest): Promise<TransportResult> {
    return new Promise<TransportResult>((resolve) => {
      const exchange = new StreamExchange(entry.session, options.maxResponseBodyBytes, performance.now() + options.requestTimeoutMs, (result) => {
        if (--entry.active === 0) entry.idleSince = performance.now();
        wakeOne();
        resolve(result);
      });
      deadlines.push(exchange);
      sweeper ??= setInterval(sweep, sweepEveryMs).unref();
      exchange.start(request);
    });
  }

  return {
    async adopt(socket) {
      await add(socket);
    },
    async request(request) {
      for (let attempt = 1; ; attempt++) {
        if (closed) return { error: "network", message: "transport closed" };
        // A free slot on an open session, the usual case mid-send: taken without a promise.
        let entry = available();
        try {
          if (entry !== undefined) entry.active++;
          else entry = await acquire();
        } catch (error) {
          return { error: transportErrorKind(error), message: error instanceof Error ? error.message : String(error) };
        }
        const result = await send(entry, request);
        // A refused stream was never processed (RFC 9113 §8.7), e.g. one above a GOAWAY's last
        // stream id: sending it again on another session cannot duplicate it.
        if (result !== REFUSED || attempt === 3) return result === REFUSED ? REFUSED_FAILURE : result;
      }
    },
    async close() {
      closed = true;
      clearInterval(idleChecker);
      idleChecker = undefined;
      await Promise.all(
        entries.map((entry) => new Promise<void>((resolve) => (entry.session.closed ? resolve() : entry.session.close(() => resolve())))),
      );
    },
  };
}
