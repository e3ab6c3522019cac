import type { FastifyReply } from "fastify";

export interface EventStreamOptions {
  /** A comment line this often keeps proxies from closing a quiet stream; default 15 s. */
  readonly heartbeatMs?: number | undefined;
}

/** A Server-Sent Events response (WHATWG HTML §9.2) that the route writes to until it ends. */
export interface EventStream {
  /** True once the client went away or `end()` was called; writes are then ignored. */
  readonly closed: boolean;
  /** One event; `data` is a single line (JSON), so it needs no splitting into `data:` lines. */
  /** `id` undefined: the event sets no id (the client's Last-Event-ID stays as it was). */
  send(event: string, id: string | number | undefined, data: string): void;
  /** Runs once when the stream closes, from either side: stop timers, unsubscribe. */
  onClose(listener: () => void): void;
  /** Ends the stream from the server's side (the client reconnects only if it wants more). */
  end(): void;
}

/**
 * Takes the response over from Fastify (`reply.hijack()`) and opens an event stream on it: the
 * headers, a reconnection delay, a heartbeat, and clean-up when the client disconnects.
 */
export function openEventStream(reply: FastifyReply, options: EventStreamOptions = {}): EventStream {
  // Headers hooks already set (CORS for a registered site, security headers) go out too: after
  // hijack() Fastify no longer writes them.
  const earlier: Record<string, string | number | string[]> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) earlier[name] = value;
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...earlier,
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache, no-store",
    connection: "keep-alive",
    // nginx would otherwise buffer the stream and events would arrive in bursts.
    "x-accel-buffering": "no",
  });
  // The client asks for reconnection after 2 s should the connection drop (§9.2.6 `retry`).
  raw.write("retry: 2000\n\n");

  let closed = false;
  const listeners: (() => void)[] = [];
  const heartbeat = setInterval(() => !closed && raw.write(": ping\n\n"), options.heartbeatMs ?? 15_000);

  function finish(endResponse: boolean): void {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    for (const listener of listeners) listener();
    if (endResponse) raw.end();
  }
  raw.on("close", () => finish(false));

  return {
    get closed() {
      return closed;
    },
    send(event, id, data) {
      if (!closed) raw.write(id === undefined ? `event: ${event}\ndata: ${data}\n\n` : `event: ${event}\nid: ${id}\ndata: ${data}\n\n`);
    },
    onClose(listener) {
      listeners.push(listener);
    },
    end: () => finish(true),
  };
}
