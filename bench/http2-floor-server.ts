/**
 * The server half of the HTTP/2 floor (see http2-floor.ts), in its own process:
 *
 *   node --import tsx bench/http2-floor-server.ts
 *
 * A bare node:http2 TLS server on 127.0.0.1, port 0, stream API and nothing else: it reads each
 * request's body and answers 201 with a `location` header, as a push service accepting a message
 * does — no routing, no VAPID check, no bookkeeping beyond a counter. What it costs per request is
 * the least any Node push service costs, so the floor is not raised by the fake's own work.
 *
 * `GET /_floor/cpu` answers this process's CPU time so far (`process.cpuUsage()`, user + system,
 * µs) and the requests answered: the client asks before and after its measured window and takes
 * the difference. Prints one JSON line `{"ready":true,"origin":...,"pid":...}` on stdout once
 * listening; stops on SIGTERM/SIGINT.
 */
import { createSecureServer, type ServerHttp2Stream } from "node:http2";
import type { AddressInfo } from "node:net";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";

export interface FloorServerCpu {
  /** User + system CPU time of the server process since it started, in microseconds. */
  readonly cpuUs: number;
  /** Push requests (not `/_floor/cpu` ones) answered since it started. */
  readonly requests: number;
}

/** Also named in http2-floor.ts (which must not import this script: importing it starts a server). */
const CPU_PATH = "/_floor/cpu";

const tls = loadTestTls();
const server = createSecureServer({ cert: tls.cert, key: tls.key, allowHTTP1: false });
let origin = "";
let requests = 0;

function answerCpu(stream: ServerHttp2Stream): void {
  const { user, system } = process.cpuUsage();
  const body: FloorServerCpu = { cpuUs: user + system, requests };
  stream.respond({ ":status": 200, "content-type": "application/json" });
  stream.end(JSON.stringify(body));
}

server.on("stream", (stream, headers) => {
  if (headers[":path"] === CPU_PATH) {
    stream.resume();
    answerCpu(stream);
    return;
  }
  // Read the body to its end, as a push service must before it accepts the message.
  stream.on("data", () => undefined);
  stream.on("end", () => {
    requests++;
    stream.respond({ ":status": 201, location: `${origin}/m/${requests}` }, { endStream: true });
  });
  stream.on("error", () => undefined);
});
server.on("sessionError", () => undefined);

await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

const stop = (): void => {
  server.close(() => process.exit(0));
  // Open sessions keep close() waiting; the client has its figures by the time it signals us.
  setTimeout(() => process.exit(0), 1_000).unref();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

// Only now, with the handlers in place (the parent may signal as soon as it reads this line).
process.stdout.write(`${JSON.stringify({ ready: true, origin, pid: process.pid })}\n`);
