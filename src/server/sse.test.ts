import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { openEventStream, type EventStream } from "./sse.js";

describe("openEventStream", () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** A server whose one route opens a stream and hands it to `use`. */
  async function serve(use: (stream: EventStream) => void, heartbeatMs?: number): Promise<string> {
    // The aborted stream's socket otherwise holds close() for seconds: not what is under test.
    app = Fastify({ forceCloseConnections: true });
    app.get("/stream", (_request, reply) => use(openEventStream(reply, { heartbeatMs })));
    return `${await app.listen({ port: 0, host: "127.0.0.1" })}/stream`;
  }

  it("writes the headers, the retry delay and events, and ends when the server ends it", async () => {
    let closes = 0;
    const url = await serve((stream) => {
      stream.onClose(() => closes++);
      stream.send("progress", 7, '{"a":1}');
      stream.end();
      stream.send("progress", 8, '{"a":2}');
    });
    const response = await fetch(url);
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    expect(await response.text()).toBe('retry: 2000\n\nevent: progress\nid: 7\ndata: {"a":1}\n\n');
    expect(closes).toBe(1);
  });

  it("sends heartbeat comments and runs the clean-up once when the client goes away", async () => {
    let resolveClosed: () => void = () => undefined;
    const closedOnServer = new Promise<void>((resolve) => (resolveClosed = resolve));
    let streamSeen: EventStream | undefined;
    const url = await serve((stream) => {
      streamSeen = stream;
      stream.onClose(resolveClosed);
    }, 20);
    const controller = new AbortController();
    const reader = (await fetch(url, { signal: controller.signal })).body!.getReader();
    let text = "";
    while (!text.includes(": ping\n\n")) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await closedOnServer;
    expect(streamSeen?.closed).toBe(true);
  });
});
