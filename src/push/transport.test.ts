import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import http2 from "node:http2";
import https from "node:https";
import type { AddressInfo, LookupFunction } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { classifyResponse } from "./classify-response.js";
import type { EndpointPolicy } from "./endpoint-policy.js";
import type { PushRequest } from "./request.js";
import { createPushTransport, isTransportFailure, type PushTransport, type PushTransportOptions, type TransportResult } from "./transport.js";

const tlsDir = new URL("../../test/fixtures/tls/", import.meta.url);
const key = readFileSync(new URL("server-key.pem", tlsDir));
const cert = readFileSync(new URL("server.pem", tlsDir));
const ca = readFileSync(new URL("ca.pem", tlsDir));

const testPolicy: EndpointPolicy = {
  allowedHosts: ["127.0.0.1", "localhost", "push.example.test"],
  allowPrivateAddresses: true,
  maxLength: 1024,
};

/**
 * What the handlers use of a response, common to HTTP/1.1 and HTTP/2. Node 24's types give the two
 * `writeHead` overload sets that a union of both response types cannot call.
 */
interface TestResponse {
  writeHead(statusCode: number, headers?: OutgoingHttpHeaders): unknown;
  end(chunk?: string | Buffer): unknown;
}

type Handler = (req: http2.Http2ServerRequest | IncomingMessage, res: TestResponse) => void;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function h2Server(handler: Handler, settings: http2.Settings = {}) {
  const server = http2.createSecureServer({ key, cert, allowHTTP1: false, settings });
  const sessions = new Set<http2.ServerHttp2Session>();
  let sessionCount = 0;
  server.on("session", (s) => {
    sessionCount++;
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  server.on("request", handler as (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => void);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sessions) s.destroy();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, origin: `https://127.0.0.1:${port}`, sessions: () => sessionCount };
}

async function h1Server(handler: Handler) {
  const server = https.createServer({ key, cert }, handler as (req: IncomingMessage, res: ServerResponse) => void);
  let connections = 0;
  server.on("secureConnection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const port = (server.address() as AddressInfo).port;
  return { port, origin: `https://127.0.0.1:${port}`, connections: () => connections };
}

function transport(overrides: Partial<PushTransportOptions> = {}): PushTransport {
  const t = createPushTransport({ policy: testPolicy, ca, requestTimeoutMs: 10_000, ...overrides });
  cleanups.push(() => t.close());
  return t;
}

function pushRequest(origin: string, path = "/push/1"): PushRequest {
  return {
    origin,
    path,
    method: "POST",
    headers: { ttl: "60", "content-encoding": "aes128gcm", "content-length": "3" },
    body: Buffer.from("abc"),
  };
}

const ok201: Handler = (req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(201);
    res.end();
  });
};

function status(result: TransportResult): number | string {
  return isTransportFailure(result) ? result.error : result.status;
}

describe("push transport over HTTP/2", () => {
  it("negotiates h2 and multiplexes 50 concurrent requests over one connection", async () => {
    let protocols = new Set<string>();
    const server = await h2Server((req, res) => {
      protocols.add(req.httpVersion);
      ok201(req, res);
    });
    const t = transport();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => t.send(pushRequest(server.origin, `/push/${i}`))));
    expect(results.map(status)).toEqual(Array(50).fill(201));
    expect(protocols).toEqual(new Set(["2.0"]));
    expect(server.sessions()).toBe(1);
    expect(t.stats().connections).toEqual({ h2: 1, "http/1.1": 0 });
    // A later batch reuses the same session.
    protocols = new Set();
    await Promise.all(Array.from({ length: 10 }, () => t.send(pushRequest(server.origin))));
    expect(server.sessions()).toBe(1);
  });

  it("closes a session after idleTimeoutMs without a stream, and opens a new one for the next request", async () => {
    const seen = new Set<http2.Http2Session>();
    const closed: Array<Promise<unknown>> = [];
    const server = await h2Server((req, res) => {
      const session = (req as http2.Http2ServerRequest).stream.session!;
      if (!seen.has(session)) {
        seen.add(session);
        closed.push(once(session, "close"));
      }
      ok201(req, res);
    });
    const t = transport({ idleTimeoutMs: 50 });
    expect(status(await t.send(pushRequest(server.origin)))).toBe(201);
    // The client closes the idle session (were it kept open, this would wait until the test times out).
    await closed[0];
    expect(status(await t.send(pushRequest(server.origin)))).toBe(201);
    expect(server.sessions()).toBe(2);
    expect(t.stats().connections.h2).toBe(2);
  });

  it("sends the request's method, path, headers and body as given", async () => {
    let seen: { method: string; url: string; headers: Record<string, unknown>; body: string } | undefined;
    const server = await h2Server((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        seen = { method: req.method ?? "", url: req.url ?? "", headers: { ...req.headers }, body: Buffer.concat(chunks).toString() };
        res.writeHead(201);
        res.end();
      });
    });
    const result = await transport().send(pushRequest(server.origin, "/push/abc?x=1"));
    expect(status(result)).toBe(201);
    expect(seen).toMatchObject({ method: "POST", url: "/push/abc?x=1", body: "abc", headers: { ttl: "60", "content-encoding": "aes128gcm" } });
  });

  it("times out a request the server never answers", async () => {
    const server = await h2Server((req) => {
      req.resume(); // never answer
    });
    const result = await transport({ requestTimeoutMs: 300 }).send(pushRequest(server.origin));
    expect(status(result)).toBe("timeout");
  });

  it("returns a redirect as it is and never follows its Location", async () => {
    const target = await h2Server(ok201);
    let targetHits = 0;
    const target2 = await h2Server((req, res) => {
      targetHits++;
      ok201(req, res);
    });
    void target;
    const server = await h2Server((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${target2.origin}/push/stolen` });
      res.end();
    });
    const now = Date.now();
    const result = await transport().send(pushRequest(server.origin));
    expect(status(result)).toBe(307);
    expect(targetHits).toBe(0);
    expect(classifyResponse({ ...(result as { status: number }), now, attempt: 1, ttlDeadline: now + 60_000 })).toEqual({ kind: "fatal", reason: "redirect" });
  });

  it("keeps only the first 4 KiB of an endless response body and drops the stream", async () => {
    let streamClosed: Promise<void> | undefined;
    const server = await h2Server((req, res) => {
      req.resume();
      res.writeHead(400, { "content-type": "text/plain" });
      const chunk = Buffer.alloc(1024, 0x61);
      const r = res as http2.Http2ServerResponse;
      streamClosed = new Promise((resolve) => r.stream.on("close", () => resolve()));
      const pump = () => {
        while (!r.stream.destroyed && r.write(chunk));
        if (!r.stream.destroyed) r.once("drain", pump);
      };
      pump();
    });
    const result = await transport().send(pushRequest(server.origin));
    if (isTransportFailure(result)) throw new Error(result.message);
    expect(result.status).toBe(400);
    expect(result.body.length).toBe(4096);
    expect(result.truncated).toBe(true);
    await streamClosed; // the client reset the stream instead of reading on
  });

  it("gives Retry-After to the classifier", async () => {
    const server = await h2Server((req, res) => {
      req.resume();
      res.writeHead(429, { "retry-after": "30" });
      res.end("slow down");
    });
    const now = Date.now();
    const result = await transport().send(pushRequest(server.origin));
    if (isTransportFailure(result)) throw new Error(result.message);
    expect(result.body.toString()).toBe("slow down");
    expect(classifyResponse({ status: result.status, headers: result.headers, now, attempt: 1, ttlDeadline: now + 3_600_000 })).toEqual({
      kind: "retry",
      at: now + 30_000,
      reason: "rate_limited",
    });
  });

  it("holds requests beyond the per-origin cap in a local queue", async () => {
    let concurrent = 0;
    let peak = 0;
    const held: Array<() => void> = [];
    const server = await h2Server((req, res) => {
      concurrent++;
      peak = Math.max(peak, concurrent);
      req.resume();
      held.push(() => {
        concurrent--;
        res.writeHead(201);
        res.end();
      });
    });
    const t = transport({ maxInFlightPerOrigin: 3 });
    const all = Promise.all(Array.from({ length: 10 }, () => t.send(pushRequest(server.origin))));
    while (held.length < 3) await new Promise((r) => setTimeout(r, 5));
    expect(t.stats()).toMatchObject({ inFlight: 3, queued: 7 });
    while (held.length > 0 || t.stats().inFlight > 0) {
      held.splice(0).forEach((release) => release());
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await all).map(status)).toEqual(Array(10).fill(201));
    expect(peak).toBe(3);
  });

  it("keeps to the server's SETTINGS_MAX_CONCURRENT_STREAMS and opens a second connection only when the first is full", async () => {
    const perSession = new Map<unknown, number>();
    let peak = 0;
    const held: Array<() => void> = [];
    const server = await h2Server(
      (req, res) => {
        const session = (req as http2.Http2ServerRequest).stream.session;
        const now = (perSession.get(session) ?? 0) + 1;
        perSession.set(session, now);
        peak = Math.max(peak, now);
        req.resume();
        held.push(() => {
          perSession.set(session, (perSession.get(session) ?? 1) - 1);
          res.writeHead(201);
          res.end();
        });
      },
      { maxConcurrentStreams: 5 },
    );
    const t = transport({ maxConnectionsPerOrigin: 2 });
    // Open the first connection and learn its settings.
    const warm = t.send(pushRequest(server.origin));
    while (held.length < 1) await new Promise((r) => setTimeout(r, 5));
    held.splice(0).forEach((release) => release());
    expect(status(await warm)).toBe(201);

    const all = Promise.all(Array.from({ length: 14 }, () => t.send(pushRequest(server.origin))));
    while (held.length < 10) await new Promise((r) => setTimeout(r, 5));
    expect(server.sessions()).toBe(2);
    expect(peak).toBe(5);
    while (t.stats().inFlight > 0) {
      held.splice(0).forEach((release) => release());
      await new Promise((r) => setTimeout(r, 5));
    }
    expect((await all).map(status)).toEqual(Array(14).fill(201));
    expect(server.sessions()).toBe(2);
  });

  it("reports a reset when the server drops the connection", async () => {
    const server = await h2Server((req) => {
      (req as http2.Http2ServerRequest).stream.session?.destroy();
    });
    expect(status(await transport().send(pushRequest(server.origin)))).toBe("reset");
  });
});

describe("push transport over HTTP/1.1", () => {
  it("falls back to HTTP/1.1 keep-alive and reuses its connections", async () => {
    const versions = new Set<string>();
    const server = await h1Server((req, res) => {
      versions.add(req.httpVersion);
      ok201(req, res);
    });
    const t = transport({ maxConnectionsPerOrigin: 2 });
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(Array.from({ length: 6 }, () => t.send(pushRequest(server.origin))));
      expect(results.map(status)).toEqual(Array(6).fill(201));
    }
    expect(versions).toEqual(new Set(["1.1"]));
    expect(server.connections()).toBeLessThanOrEqual(2);
    expect(t.stats().connections.h2).toBe(0);
  });

  it("does not follow an HTTP/1.1 redirect and caps an endless HTTP/1.1 body", async () => {
    let targetHits = 0;
    const target = await h1Server((req, res) => {
      targetHits++;
      ok201(req, res);
    });
    const server = await h1Server((req, res) => {
      req.resume();
      if (req.url === "/redirect") {
        res.writeHead(302, { location: `${target.origin}/push/stolen` });
        res.end();
        return;
      }
      const r = res as ServerResponse;
      r.writeHead(500);
      const chunk = Buffer.alloc(1024, 0x62);
      const pump = () => {
        while (!r.destroyed && r.write(chunk));
        if (!r.destroyed) r.once("drain", pump);
      };
      pump();
    });
    const t = transport();
    expect(status(await t.send(pushRequest(server.origin, "/redirect")))).toBe(302);
    expect(targetHits).toBe(0);
    const endless = await t.send(pushRequest(server.origin, "/endless"));
    if (isTransportFailure(endless)) throw new Error(endless.message);
    expect(endless).toMatchObject({ status: 500, truncated: true });
    expect(endless.body.length).toBe(4096);
  });

  it("times out a hanging HTTP/1.1 server", async () => {
    const server = await h1Server((req) => req.resume());
    expect(status(await transport({ requestTimeoutMs: 300 }).send(pushRequest(server.origin)))).toBe("timeout");
  });
});

describe("push transport address checks", () => {
  const toLoopback: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: "127.0.0.1", family: 4 }]);
    else callback(null, "127.0.0.1", 4);
  };

  it("refuses a host name that resolves to 127.0.0.1 (DNS rebinding) without connecting", async () => {
    let hits = 0;
    const server = await h2Server((req, res) => {
      hits++;
      ok201(req, res);
    });
    // The host and its port are on the allow-list: only the address it resolves to is wrong.
    const policy = { ...testPolicy, allowedHosts: [...testPolicy.allowedHosts, `push.example.test:${server.port}`], allowPrivateAddresses: false };
    const t = transport({ policy, lookup: toLoopback });
    const result = await t.send(pushRequest(`https://push.example.test:${server.port}`));
    expect(status(result)).toBe("blocked_address");
    expect(server.sessions()).toBe(0);
    expect(hits).toBe(0);
  });

  it("refuses a loopback IP literal when private addresses are not allowed", async () => {
    const server = await h2Server(ok201);
    const t = transport({ policy: { ...testPolicy, allowPrivateAddresses: false } });
    expect(status(await t.send(pushRequest(server.origin)))).toBe("blocked_address");
    expect(server.sessions()).toBe(0);
  });

  it("refuses a host outside the allow-list", async () => {
    const server = await h2Server(ok201);
    const t = transport({ policy: { ...testPolicy, allowedHosts: ["fcm.googleapis.com"] } });
    expect(status(await t.send(pushRequest(server.origin)))).toBe("blocked_endpoint");
  });

  it("connects through an injected lookup when the policy allows private addresses", async () => {
    const server = await h2Server(ok201);
    const t = transport({ lookup: toLoopback });
    expect(status(await t.send(pushRequest(`https://localhost:${server.port}`)))).toBe(201);
  });

  it("reports a refused connection", async () => {
    const server = await h2Server(ok201);
    const port = server.port;
    await cleanups.pop()?.(); // close it: nothing listens on the port any more
    expect(status(await transport().send(pushRequest(`https://127.0.0.1:${port}`)))).toBe("refused");
  });

  it("reports a TLS failure when the certificate is not trusted", async () => {
    const server = await h2Server(ok201);
    const t = createPushTransport({ policy: testPolicy });
    cleanups.push(() => t.close());
    expect(status(await t.send(pushRequest(server.origin)))).toBe("tls");
  });
});
