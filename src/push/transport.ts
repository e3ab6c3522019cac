import type { LookupFunction } from "node:net";
import type { TLSSocket } from "node:tls";
import { Pool, type Dispatcher } from "undici";
import { checkEndpoint, type EndpointPolicy } from "./endpoint-policy.js";
import { connectGuardedTls, createGuardedConnector, type GuardOptions } from "./guarded-connector.js";
import { createH2SessionPool, type H2SessionPool } from "./h2-session-pool.js";
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
  /** Idle connections are closed after this long. */
  readonly idleTimeoutMs?: number;
  /** Extra CA certificates (tests trust the fake push service's self-signed CA). */
  readonly ca?: string | Buffer | Array<string | Buffer>;
  readonly lookup?: LookupFunction;
}

export interface PushResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
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

type Route = { kind: "h2"; pool: H2SessionPool } | { kind: "http/1.1"; pool: Pool };

interface OriginState {
  readonly url: URL;
  readonly refusal: TransportFailure | undefined;
  readonly gate: OriginGate;
  route: Route | undefined;
  /** The first connection, which learns the protocol by ALPN; shared by requests meanwhile. */
  probe: Promise<Route> | undefined;
}

export function isTransportFailure(result: TransportResult): result is TransportFailure {
  return "error" in result;
}

/** Deadline of one push request (SINO_PUSH_TIMEOUT_MS). */
export const DEFAULT_PUSH_TIMEOUT_MS = 20_000;
/** Requests in flight to one push service; more wait in line (SINO_PUSH_MAX_IN_FLIGHT_PER_ORIGIN). */
export const DEFAULT_MAX_IN_FLIGHT_PER_ORIGIN = 512;

/**
 * Sends built push requests over reused connections, per push-service origin: HTTP/2 multiplexed
 * (node:http2) when the service offers it by ALPN, HTTP/1.1 keep-alive (undici) otherwise.
 * Redirects are never followed, every request has a deadline, response bodies are capped, and
 * no connection is made to a non-public address unless the policy allows it (tests).
 */
export function createPushTransport(options: PushTransportOptions): PushTransport {
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_PUSH_TIMEOUT_MS;
  const maxConnections = options.maxConnectionsPerOrigin ?? 4;
  const maxInFlight = options.maxInFlightPerOrigin ?? DEFAULT_MAX_IN_FLIGHT_PER_ORIGIN;
  const maxStreams = options.maxStreamsPerConnection ?? 128;
  const maxBody = options.maxResponseBodyBytes ?? 4096;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const guard: GuardOptions = {
    allowPrivateAddresses: options.policy.allowPrivateAddresses,
    connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    ...(options.ca !== undefined ? { ca: options.ca } : {}),
    ...(options.lookup !== undefined ? { lookup: options.lookup } : {}),
  };
  const h1Connector = createGuardedConnector(guard);
  const origins = new Map<string, OriginState>();
  const connections = { h2: 0, "http/1.1": 0 };
  // Requests accepted and not yet answered; close() waits for the count to reach zero. A counter,
  // not a set of promises: no extra promise and closure per push.
  let pending = 0;
  let drained: (() => void) | undefined;
  let draining: Promise<void> | undefined;
  let closed = false;

  function originState(origin: string): OriginState {
    const known = origins.get(origin);
    if (known !== undefined) return known;
    // The host was checked when the subscription was stored; the allow-list may have changed since.
    const check = checkEndpoint(`${origin}/`, options.policy);
    const state: OriginState = {
      url: new URL(origin),
      refusal: check.ok
        ? undefined
        : { error: check.code === "endpoint_private_address" ? "blocked_address" : "blocked_endpoint", message: check.code },
      gate: createOriginGate(maxInFlight),
      route: undefined,
      probe: undefined,
    };
    origins.set(origin, state);
    return state;
  }

  async function h2Pool(state: OriginState, first: TLSSocket): Promise<Route> {
    const pool = createH2SessionPool({
      origin: state.url.origin,
      connect: () => connectGuardedTls(state.url, guard),
      maxSessions: maxConnections,
      maxStreamsPerSession: maxStreams,
      requestTimeoutMs,
      maxResponseBodyBytes: maxBody,
      idleTimeoutMs,
      settingsTimeoutMs: guard.connectTimeoutMs,
      onSession: () => connections.h2++,
    });
    await pool.adopt(first);
    return { kind: "h2", pool };
  }

  function h1Pool(state: OriginState): Route {
    const pool = new Pool(state.url.origin, {
      connections: maxConnections,
      connect: (connectOptions, callback) =>
        h1Connector(connectOptions, (err, socket) => {
          if (err === null) connections["http/1.1"]++;
          (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
        }),
      headersTimeout: requestTimeoutMs,
      bodyTimeout: requestTimeoutMs,
      keepAliveTimeout: idleTimeoutMs,
    });
    return { kind: "http/1.1", pool };
  }

  async function route(state: OriginState): Promise<Route> {
    if (state.route !== undefined) return state.route;
    if (state.probe === undefined) {
      state.probe = connectGuardedTls(state.url, guard).then((socket) => {
        if (socket.alpnProtocol === "h2") return h2Pool(state, socket);
        // HTTP/1.1 only (rare among push services): undici's keep-alive pool takes over; the
        // probe's socket is not handed to it, as undici expects to drive a connection from its start.
        socket.destroy();
        return h1Pool(state);
      });
      state.probe.then(
        (r) => (state.route = r),
        () => undefined,
      );
      // A failed probe fails the requests that waited on it; the next request probes afresh.
      state.probe.catch(() => (state.probe = undefined));
    }
    return state.probe;
  }

  async function dispatch(state: OriginState, request: PushRequest): Promise<TransportResult> {
    pending++;
    try {
      const wait = state.gate.acquire();
      if (wait !== undefined) await wait;
      try {
        const r = state.route ?? (await route(state));
        return r.kind === "h2" ? await r.pool.request(request) : await sendH1(r.pool, request);
      } catch (error) {
        return { error: transportErrorKind(error), message: errorMessage(error) };
      } finally {
        state.gate.release();
      }
    } finally {
      if (--pending === 0) drained?.();
    }
  }

  async function sendH1(pool: Pool, request: PushRequest): Promise<TransportResult> {
    const response = await pool.request({
      path: request.path,
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(requestTimeoutMs),
    } as Dispatcher.RequestOptions);
    const { body, truncated } = await readCapped(response.body, maxBody);
    return { status: response.statusCode, headers: response.headers, body, truncated };
  }

  return {
    send(request) {
      if (closed) return Promise.resolve({ error: "network", message: "transport closed" });
      const state = originState(request.origin);
      if (state.refusal !== undefined) return Promise.resolve(state.refusal);
      return dispatch(state, request);
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
      if (pending > 0) await (draining ??= new Promise<void>((resolve) => (drained = resolve)));
      await Promise.all([...origins.values()].map((state) => state.route?.pool.close()));
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
