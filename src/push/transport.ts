import type { LookupFunction, Socket } from "node:net";
import { Client, Pool, type Dispatcher } from "undici";
import { checkEndpoint, type EndpointPolicy } from "./endpoint-policy.js";
import { createGuardedConnector } from "./guarded-connector.js";
import { createOriginGate, type OriginGate } from "./origin-gate.js";
import type { PushRequest } from "./request.js";
import { transportErrorKind, type TransportErrorKind } from "./transport-error.js";

export interface PushTransportOptions {
  readonly policy: EndpointPolicy;
  readonly connectTimeoutMs?: number;
  /** Whole request, from dispatch to the end of the (capped) body. */
  readonly requestTimeoutMs?: number;
  /** TCP/TLS connections per origin; with HTTP/2 each carries many requests at once. */
  readonly maxConnectionsPerOrigin?: number;
  /** Requests in flight per origin; more wait in a local queue. */
  readonly maxInFlightPerOrigin?: number;
  /** Concurrent HTTP/2 streams per connection (the server's SETTINGS may lower it). */
  readonly maxStreamsPerConnection?: number;
  /** Response bytes kept; the rest is dropped unread. */
  readonly maxResponseBodyBytes?: number;
  /** Extra CA certificates (tests trust the fake push service's self-signed CA). */
  readonly ca?: string | Buffer | Array<string | Buffer>;
  readonly lookup?: LookupFunction;
}

export interface PushResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** At most `maxResponseBodyBytes` of the body (push services put error details there). */
  readonly body: Buffer;
  readonly truncated: boolean;
}

export interface TransportFailure {
  readonly error: TransportErrorKind;
  readonly message: string;
}

export type TransportResult = PushResponse | TransportFailure;

export interface TransportStats {
  readonly origins: number;
  readonly connections: { readonly h2: number; readonly "http/1.1": number };
  readonly inFlight: number;
  readonly queued: number;
}

export interface PushTransport {
  send(request: PushRequest): Promise<TransportResult>;
  stats(): TransportStats;
  /** Stops accepting requests and waits for those in flight and queued. */
  close(): Promise<void>;
}

interface OriginState {
  readonly refusal: TransportFailure | undefined;
  readonly pool: Pool | undefined;
  readonly gate: OriginGate;
  protocol: "h2" | "http/1.1" | undefined;
  /** Settles once the origin's first connection is up (or its first request has failed). */
  firstConnection: Promise<void> | undefined;
  onFirstConnection: (() => void) | undefined;
}

export function isTransportFailure(result: TransportResult): result is TransportFailure {
  return "error" in result;
}

/**
 * Sends built push requests over pooled connections, one pool per push-service origin: HTTP/2
 * multiplexed when the service offers it by ALPN, HTTP/1.1 keep-alive otherwise. Redirects are
 * never followed (undici's request() follows none unless told to), every request has a deadline,
 * and no connection is made to a non-public address unless the policy allows it (tests).
 */
export function createPushTransport(options: PushTransportOptions): PushTransport {
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const maxConnections = options.maxConnectionsPerOrigin ?? 4;
  const maxInFlight = options.maxInFlightPerOrigin ?? 256;
  const maxStreams = options.maxStreamsPerConnection ?? 100;
  const maxBody = options.maxResponseBodyBytes ?? 4096;
  const origins = new Map<string, OriginState>();
  const connections = { h2: 0, "http/1.1": 0 };
  const pending = new Set<Promise<unknown>>();
  let closed = false;

  const connector = createGuardedConnector({
    allowPrivateAddresses: options.policy.allowPrivateAddresses,
    connectTimeoutMs,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    ...(options.lookup !== undefined ? { lookup: options.lookup } : {}),
  });

  function originState(origin: string): OriginState {
    const state = origins.get(origin);
    if (state !== undefined) return state;
    // The host was checked when the subscription was stored; the allow-list may have changed since.
    const check = checkEndpoint(`${origin}/`, options.policy);
    const refusal: TransportFailure | undefined = check.ok
      ? undefined
      : {
          error: check.code === "endpoint_private_address" ? "blocked_address" : "blocked_endpoint",
          message: check.code,
        };
    const created: OriginState = {
      refusal,
      pool: refusal === undefined ? createPool(origin, () => created) : undefined,
      gate: createOriginGate(maxInFlight),
      protocol: undefined,
      firstConnection: undefined,
      onFirstConnection: undefined,
    };
    origins.set(origin, created);
    return created;
  }

  function createPool(origin: string, state: () => OriginState): Pool {
    return new Pool(origin, {
      connections: maxConnections,
      allowH2: true,
      connect: connector,
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
      factory(url, clientOptions) {
        // Until the first connection tells, assume HTTP/2 so a burst shares one connection.
        // undici's `pipelining` is also its HTTP/2 stream limit; on HTTP/1.1 it must stay 1
        // (pipelined POSTs are not safe to replay), so it is set per connection from ALPN.
        const known = state().protocol;
        const client: Client = new Client(url, {
          ...(clientOptions as Client.Options),
          pipelining: known === "http/1.1" ? 1 : maxStreams,
          maxConcurrentStreams: maxStreams,
          connect: (connectOptions, callback) =>
            connector(connectOptions, (err, socket) => {
              if (err !== null || socket === null) return callback(err ?? new Error("no socket"), null);
              const alpn = (socket as Socket & { alpnProtocol?: string | false }).alpnProtocol;
              const protocol = alpn === "h2" ? "h2" : "http/1.1";
              const origin = state();
              origin.protocol = protocol;
              connections[protocol]++;
              client.pipelining = protocol === "h2" ? maxStreams : 1;
              callback(null, socket);
              origin.onFirstConnection?.();
            }),
        });
        return client;
      },
    });
  }

  async function dispatch(state: OriginState, request: PushRequest): Promise<TransportResult> {
    // undici counts a client as busy while it is still connecting, so a burst to a new origin
    // would open every allowed connection at once. One request goes first and learns the
    // protocol; the others follow on its connection (HTTP/2) or spread out (HTTP/1.1).
    if (state.firstConnection === undefined) {
      let opened!: () => void;
      state.firstConnection = new Promise<void>((resolve) => (opened = resolve));
      state.onFirstConnection = opened;
      const first = send(state, request);
      // A failed first attempt must not hold the others back.
      void first.then(opened);
      return first;
    }
    await state.firstConnection;
    return send(state, request);
  }

  async function send(state: OriginState, request: PushRequest): Promise<TransportResult> {
    const wait = state.gate.acquire();
    if (wait !== undefined) await wait;
    try {
      const response = await state.pool!.request({
        path: request.path,
        method: request.method,
        headers: request.headers,
        body: request.body,
        signal: AbortSignal.timeout(requestTimeoutMs),
        // POST is not idempotent to undici, which then sends one at a time per connection even
        // over HTTP/2. A push may be delivered twice at worst (at-least-once), never lost.
        idempotent: true,
      } as Dispatcher.RequestOptions);
      const { body, truncated } = await readCapped(response.body, maxBody);
      return { status: response.statusCode, headers: response.headers, body, truncated };
    } catch (error) {
      return { error: transportErrorKind(error), message: errorMessage(error) };
    } finally {
      state.gate.release();
    }
  }

  return {
    send(request) {
      if (closed) return Promise.resolve({ error: "network", message: "transport closed" });
      const state = originState(request.origin);
      if (state.refusal !== undefined) return Promise.resolve(state.refusal);
      const promise = dispatch(state, request);
      pending.add(promise);
      void promise.finally(() => pending.delete(promise));
      return promise;
    },
    stats() {
      let inFlight = 0;
      let queued = 0;
      for (const state of origins.values()) {
        inFlight += state.gate.inFlight;
        queued += state.gate.waiting;
      }
      return { origins: origins.size, connections: { ...connections }, inFlight, queued };
    },
    async close() {
      closed = true;
      await Promise.allSettled([...pending]);
      await Promise.all([...origins.values()].map((state) => state.pool?.close()));
    },
  };
}

async function readCapped(body: Dispatcher.ResponseData["body"], cap: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (size + chunk.length > cap) {
      chunks.push(chunk.subarray(0, cap - size));
      size = cap;
      truncated = true;
      break; // leaving the loop destroys the stream: an endless body is not read further
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size), truncated };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
