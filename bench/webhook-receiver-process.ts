/**
 * The webhook bench's receiver, in its own process so its CPU is not the sender's: https on the
 * test certificate, answers every POST with 204, and `GET /stats` with how many it got and when
 * the first and last arrived (ms, performance.timeOrigin-based). Prints its origin on stdout.
 */
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { loadTestTls } from "../test/support/fake-push/test-tls.js";

const tls = loadTestTls();
let count = 0;
let first = 0;
let last = 0;
const server = createServer({ cert: tls.cert, key: tls.key, keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ count, first, last }));
    return;
  }
  req.resume();
  req.on("end", () => {
    const now = Date.now();
    if (count === 0) first = now;
    last = now;
    count++;
    res.writeHead(204);
    res.end();
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`https://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
