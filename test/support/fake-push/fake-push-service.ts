import { once } from "node:events";
import { createServer as createHttp1Server } from "node:http";
import { createServer as createHttp2Server, type Http2Session } from "node:http2";
import type { AddressInfo } from "node:net";
import { createServer as createTlsServer, type TLSSocket } from "node:tls";
import { handleAdminRequest } from "./admin-routes.js";
import { createBehaviourBook, type BehaviourRule, type FakeAction } from "./behaviour.js";
import { decryptPushBody, type ReceiverKeys } from "./decrypt.js";
import { H1Exchange, H2Exchange, type Exchange } from "./exchange.js";
import { DEFAULT_KEY_SEED, subscriberSecretsFor } from "./keys.js";
import { createStatsRecorder, type FakePushStats, type RecordedRequest } from "./stats.js";
import { loadTestTls } from "./test-tls.js";
import { createVapidVerifier, type VapidFailure } from "./vapid-verifier.js";

/** A validated push message, handed to a route's `deliver`. */
export interface IncomingPush {
  readonly id: string;
  readonly body: Buffer;
  readonly ttl: number;
  readonly urgency: string | undefined;
  readonly topic: string | undefined;
  /** The VAPID public key (`k=`) the sender signed with. */
  readonly vapidKey: string;
}

/**
 * A family of push endpoints under one path prefix. The fake serves `/push/<id>` itself; the
 * Mozilla push server adds `/wpush/<channelID>` and forwards to Firefox.
 */
export interface PushRoute {
  /** The applicationServerKey the subscription was made with, when known: `k` must match. */
  vapidKeyFor?(id: string): string | undefined;
  /** Answers the status for an accepted, validated push: 201, or e.g. 410 for an unknown id. */
  deliver(push: IncomingPush): number | Promise<number>;
  /** Whether to decrypt a sample of this route's bodies with the subscriber keys. */
  readonly decrypts?: boolean;
}

export interface FakePushServiceOptions {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Seed of `subscriberKeysFor`, shared with whoever seeds the subscriptions. */
  readonly keySeed?: string;
  /** Decrypt one body in N (1 = all, the default; 0 = none). */
  readonly decryptSample?: number;
  /** How many recent requests `stats().log` keeps. */
  readonly logSize?: number;
  /** Close each connection after it has served this many requests (GOAWAY / Connection: close). */
  readonly closeConnectionAfter?: number;
  /** When set, every `/push/` request must be signed with this VAPID key (else 403). */
  readonly vapidPublicKey?: string;
  /** Extra routes by path prefix, e.g. `{ "/wpush/": route }`. */
  readonly routes?: Readonly<Record<string, PushRoute>>;
  readonly random?: () => number;
}

export interface RegisteredKeys extends ReceiverKeys {
  /** The applicationServerKey the subscription was made with; VAPID `k` must match it. */
  readonly vapidKey?: string;
}

export interface FakePushConfig {
  readonly decryptSample?: number;
  readonly closeConnectionAfter?: number | null;
  readonly vapidPublicKey?: string | null;
}

// RFC 8030 §7.2 lets a push service cap the body; 4096 is what every real one takes (RFC 8291 §4).
const MAX_BODY_BYTES = 4096;
const URGENCIES = new Set(["very-low", "low", "normal", "high"]);
// RFC 8030 §5.4: a Topic is at most 32 characters from the URL-safe base64 alphabet.
const TOPIC_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
const TTL_PATTERN = /^\d+$/;

type Writable<T> = { -readonly [K in keyof T]: T[K] };

export async function startFakePushService(options: FakePushServiceOptions = {}) {
  const tls = loadTestTls();
  const keySeed = options.keySeed ?? DEFAULT_KEY_SEED;
  const random = options.random ?? Math.random;
  let decryptSample = options.decryptSample ?? 1;
  let closeConnectionAfter = options.closeConnectionAfter;
  let vapidPublicKey = options.vapidPublicKey;
  const book = createBehaviourBook(random);
  const stats = createStatsRecorder(options.logSize ?? 1000);
  const registered = new Map<string, RegisteredKeys>();
  const servedByConnection = new WeakMap<object, number>();
  const sockets = new Set<TLSSocket>();
  const sessions = new Set<Http2Session>();
  const acceptedWaiters = new Set<{ count: number; resolve: () => void }>();
  const finished = (): void => stats.finished();
  let sampleCounter = 0;
  let messageCounter = 0;

  // One TLS port, two protocols: ALPN decides which server gets the connection, through the
  // servers' documented `connection` event. HTTP/2 is served on the raw stream API (no compat
  // req/res wrappers: that is most of the fake's own CPU per push), HTTP/1.1 by node:http.
  const h2Server = createHttp2Server();
  const h1Server = createHttp1Server((req, res) => serve(new H1Exchange(req, res)));
  const server = createTlsServer({ cert: tls.cert, key: tls.key, ALPNProtocols: ["h2", "http/1.1"] });
  server.on("secureConnection", (socket: TLSSocket) => {
    stats.connection();
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    // No ALPN at all (e.g. node:https without `ALPNProtocols`) means HTTP/1.1, as with allowHTTP1.
    if (socket.alpnProtocol === "h2") h2Server.emit("connection", socket);
    else h1Server.emit("connection", socket);
  });
  h2Server.on("session", (session: Http2Session) => {
    sessions.add(session);
    session.once("close", () => sessions.delete(session));
  });
  h2Server.on("stream", (stream, headers) => {
    // As node:http does for HTTP/1.1 (and the http2 compat API did): a client that waits for
    // 100 Continue gets it, then sends its body.
    if (headers.expect === "100-continue") stream.additionalHeaders({ ":status": 100 });
    serve(new H2Exchange(stream, headers));
  });

  function serve(exchange: Exchange): void {
    if (exchange.url.startsWith("/_fake/")) {
      void handleAdminRequest(exchange, control);
      return;
    }
    void handlePush(exchange).catch(() => exchange.resetRequest());
  }

  server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const origin = `https://127.0.0.1:${port}`;
  const verifier = createVapidVerifier({ origin });

  const pushRoute: PushRoute = {
    decrypts: true,
    vapidKeyFor: (id) => registered.get(id)?.vapidKey ?? vapidPublicKey,
    deliver: () => 201,
  };
  const routes: [string, PushRoute][] = [["/push/", pushRoute], ...Object.entries(options.routes ?? {})];

  function findRoute(url: string): { route: PushRoute; id: string } | undefined {
    for (const [prefix, route] of routes) {
      if (!url.startsWith(prefix)) continue;
      const rest = url.slice(prefix.length);
      if (rest === "" || rest.includes("/") || rest.includes("?")) return undefined;
      // Without a '%' there is nothing to decode (and nothing decodeURIComponent could refuse).
      if (!rest.includes("%")) return { route, id: rest };
      try {
        return { route, id: decodeURIComponent(rest) };
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  async function handlePush(exchange: Exchange): Promise<void> {
    const found = findRoute(exchange.url);
    if (found === undefined) {
      exchange.respond(404, { "content-type": "text/plain" }, "no such endpoint");
      return;
    }
    if (exchange.method !== "POST") {
      exchange.respond(405, { allow: "POST" });
      return;
    }
    const { route, id } = found;
    stats.started(exchange.protocol);
    exchange.onClose(finished);
    const served = (servedByConnection.get(exchange.connection) ?? 0) + 1;
    servedByConnection.set(exchange.connection, served);
    if (closeConnectionAfter !== undefined && served >= closeConnectionAfter) exchange.closeConnectionAfterResponse();

    const chosen = book.choose(id);
    const { body, length } = await exchange.readBody(MAX_BODY_BYTES);
    if (chosen.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, chosen.delayMs));

    // The log entry, filled in as the checks go: one object per request, recorded once.
    const entry: Writable<RecordedRequest> = {
      id,
      path: exchange.url,
      protocol: exchange.protocol,
      ttl: exchange.header("ttl"),
      urgency: exchange.header("urgency"),
      topic: exchange.header("topic"),
      contentEncoding: exchange.header("content-encoding"),
      bodyLength: length,
      status: 0,
    };

    if (breaks(chosen.action, exchange, entry)) return;

    if (length > MAX_BODY_BYTES) return refuse(exchange, entry, 413, `body of ${length} bytes exceeds ${MAX_BODY_BYTES}`);
    const vapid = verifier.check(exchange.header("authorization"), route.vapidKeyFor?.(id));
    if (!vapid.ok) return refuse(exchange, entry, vapid.status, `vapid: ${vapid.reason}`, vapid.reason);
    // RFC 8030 §5.2: TTL is required; FCM and autopush both answer 400 without it.
    const ttl = entry.ttl === undefined || !TTL_PATTERN.test(entry.ttl) ? undefined : Number(entry.ttl);
    if (ttl === undefined) return refuse(exchange, entry, 400, "missing or invalid TTL header");
    if (length > 0 && entry.contentEncoding !== "aes128gcm") return refuse(exchange, entry, 400, "Content-Encoding must be aes128gcm");
    if (entry.urgency !== undefined && !URGENCIES.has(entry.urgency)) return refuse(exchange, entry, 400, "invalid Urgency");
    if (entry.topic !== undefined && !TOPIC_PATTERN.test(entry.topic)) return refuse(exchange, entry, 400, "invalid Topic");

    if (chosen.action.kind === "status") {
      const { status, retryAfter } = chosen.action;
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (retryAfter !== undefined) headers["retry-after"] = String(retryAfter);
      record(entry, status);
      exchange.respond(status, headers, JSON.stringify({ code: status }));
      return;
    }

    if (route.decrypts === true && length > 0 && decryptSample > 0 && sampleCounter++ % decryptSample === 0) {
      tryDecrypt(id, body, entry);
    }
    const answer = route.deliver({ id, body, ttl, urgency: entry.urgency, topic: entry.topic, vapidKey: vapid.publicKey });
    const delivered = typeof answer === "number" ? answer : await answer;
    const status = delivered === 201 && chosen.action.kind === "accept" ? chosen.action.status ?? 201 : delivered;
    record(entry, status);
    messageCounter += 1;
    exchange.respond(status, status === 201 || status === 202 ? { location: `${origin}/m/${messageCounter}`, ttl: String(ttl) } : {});
  }

  function record(entry: Writable<RecordedRequest>, status: RecordedRequest["status"]): void {
    entry.status = status;
    stats.record(entry);
    if (status === 201 || status === 202) notifyAccepted();
  }

  function refuse(exchange: Exchange, entry: Writable<RecordedRequest>, status: number, error: string, vapidFailure?: VapidFailure): void {
    if (vapidFailure !== undefined) entry.vapidFailure = vapidFailure;
    record(entry, status);
    exchange.respond(status, { "content-type": "application/json" }, JSON.stringify({ code: status, error }));
  }

  /** Applies the actions that break the exchange instead of answering; true when it did. */
  function breaks(action: FakeAction, exchange: Exchange, entry: Writable<RecordedRequest>): boolean {
    switch (action.kind) {
      case "hang":
        record(entry, "hang");
        return true;
      case "reset":
        record(entry, "reset");
        exchange.resetRequest();
        return true;
      case "reset-connection":
        record(entry, "reset-connection");
        exchange.resetConnection();
        return true;
      case "endless-body":
        record(entry, action.status ?? 200);
        exchange.endlessBody(action.status ?? 200);
        return true;
      default:
        return false;
    }
  }

  function tryDecrypt(id: string, body: Buffer, entry: Writable<RecordedRequest>): void {
    try {
      const keys = registered.get(id) ?? subscriberSecretsFor(keySeed, id);
      entry.plaintext = decryptPushBody(body, keys).toString("utf8");
    } catch (error) {
      entry.decryptError = error instanceof Error ? error.message : String(error);
    }
  }

  function notifyAccepted(): void {
    for (const waiter of acceptedWaiters) {
      if (stats.accepted >= waiter.count) {
        acceptedWaiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  const control = {
    origin,
    port,
    /** The CA PEM a client must trust to reach `origin`. */
    ca: tls.ca,
    keySeed,
    endpointFor(id: string): string {
      return `${origin}/push/${encodeURIComponent(id)}`;
    },
    stats(): FakePushStats {
      return stats.snapshot();
    },
    setBehaviour(rule: BehaviourRule): void {
      book.add(rule);
    },
    clearBehaviours(): void {
      book.clear();
    },
    behaviours(): BehaviourRule[] {
      return book.list();
    },
    /** Keys of a subscription made elsewhere (e.g. by a browser), for decryption and key checks. */
    registerKeys(id: string, keys: RegisteredKeys): void {
      registered.set(id, keys);
    },
    configure(config: FakePushConfig): void {
      if (config.decryptSample !== undefined) decryptSample = config.decryptSample;
      if (config.closeConnectionAfter !== undefined) closeConnectionAfter = config.closeConnectionAfter ?? undefined;
      if (config.vapidPublicKey !== undefined) vapidPublicKey = config.vapidPublicKey ?? undefined;
    },
    /** Forgets stats and behaviours (not registered keys or configuration). */
    reset(): void {
      stats.reset();
      book.clear();
      sampleCounter = 0;
    },
    /** Resolves once `count` pushes in total have been accepted (since start or the last reset). */
    waitForAccepted(count: number, timeoutMs = 20_000): Promise<void> {
      if (stats.accepted >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const waiter = {
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
        const timer = setTimeout(() => {
          acceptedWaiters.delete(waiter);
          reject(new Error(`fake push service: ${stats.accepted} of ${count} pushes accepted after ${timeoutMs} ms`));
        }, timeoutMs);
        acceptedWaiters.add(waiter);
      });
    },
    async close(): Promise<void> {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  return control;
}

export type FakePushService = Awaited<ReturnType<typeof startFakePushService>>;
