import { Writable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { createLogger } from "./logger.js";
import { requestIdOf } from "./app.js";

const lines: Record<string, unknown>[] = [];
let server: TestServer;
beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString("utf8").split("\n")) if (text !== "") lines.push(JSON.parse(text) as Record<string, unknown>);
      done();
    },
  });
  server = await startTestServer({ logger: createLogger("info", stream), env: { SINO_WORKER_EMBEDDED: "false" } });
});
afterAll(async () => {
  await server.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

it("takes a well-formed X-Request-Id, puts it on every log line of the request and echoes it", async () => {
  const id = "lb-7f3a9c.2026:11/26+x=1";
  const response = await fetch(`${server.url}/api/v1/notices/nada`, { headers: { "x-request-id": id } });
  expect(response.status).toBe(404);
  expect(response.headers.get("x-request-id")).toBe(id);
  const ofRequest = lines.filter((l) => l.reqId === id);
  // "incoming request", "request completed" (and anything a handler logs in between).
  expect(ofRequest.map((l) => l.msg)).toEqual(expect.arrayContaining(["incoming request", "request completed"]));
  expect(lines.filter((l) => JSON.stringify(l).includes("/api/v1/notices/nada")).every((l) => l.reqId === id)).toBe(true);
});

it("makes a new id for a request without one, and for a malformed one", async () => {
  const cases: Record<string, string>[] = [{}, { "x-request-id": "tem espaço" }, { "x-request-id": "x".repeat(129) }, { "x-request-id": '{"msg":"forjada"}' }];
  for (const headers of cases) {
    const response = await fetch(`${server.url}/api/v1/config`, { headers });
    expect(response.status).toBe(200);
    const id = response.headers.get("x-request-id") ?? "";
    expect(id).toMatch(UUID);
    expect(lines.filter((l) => l.reqId === id).map((l) => l.msg)).toEqual(expect.arrayContaining(["incoming request", "request completed"]));
  }
});

it("accepts the id forms proxies send and nothing else", () => {
  expect(requestIdOf("0b5c2c62-58b4-4f43-9f0a-3c4b4b1f6d8e")).toBe("0b5c2c62-58b4-4f43-9f0a-3c4b4b1f6d8e");
  expect(requestIdOf("01HZX3K9V8Q2YB7N4T6W5M1R0C")).toBe("01HZX3K9V8Q2YB7N4T6W5M1R0C");
  expect(requestIdOf("Root=1-67891233-abcdef012345678912345678")).toBe("Root=1-67891233-abcdef012345678912345678");
  expect(requestIdOf(["a", "b"])).toMatch(UUID);
  expect(requestIdOf("")).toMatch(UUID);
  expect(requestIdOf("a\u0000b")).toMatch(UUID);
});
