import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createJsonRequest, type RequestFailure } from "./json-request.js";

class Failed extends Error {
  constructor(readonly failure: RequestFailure) {
    super("failed");
  }
}

describe("createJsonRequest", () => {
  let server: Server;
  let baseUrl: string;
  const seen: { method?: string | undefined; contentType?: string | undefined; body: string }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        seen.push({ method: req.method, contentType: req.headers["content-type"], body });
        if (req.url === "/ok") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ echo: body }));
        else if (req.url === "/empty") res.writeHead(204).end();
        else if (req.url === "/refused") {
          res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify({ error: { code: "validation_failed", message: "Inválido", field: "title" } }));
        } else res.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad Gateway</h1>");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = () => createJsonRequest({ baseUrl, toError: (failure) => new Failed(failure) });
  const failureOf = async (promise: Promise<unknown>): Promise<RequestFailure> => {
    const error: unknown = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!(error instanceof Failed)) throw new Error(`expected a Failed, got ${String(error)}`);
    return error.failure;
  };

  it("sends the body as JSON and returns the parsed answer", async () => {
    const answer = await client().json<{ echo: string }>("POST", "/ok", { a: 1 });
    expect(answer).toEqual({ echo: '{"a":1}' });
    expect(seen.at(-1)).toMatchObject({ method: "POST", contentType: "application/json" });
  });

  it("sends no body nor content type when there is none, and request() leaves a 204 unread", async () => {
    const response = await client().request("DELETE", "/empty");
    expect(response.status).toBe(204);
    expect(seen.at(-1)).toEqual({ method: "DELETE", contentType: undefined, body: "" });
  });

  it("hands the server's error body to the caller's error factory", async () => {
    expect(await failureOf(client().json("POST", "/refused", {}))).toEqual({
      kind: "http",
      status: 422,
      statusText: "Unprocessable Entity",
      error: { code: "validation_failed", message: "Inválido", field: "title" },
    });
  });

  it("gives no error body when the answer is not ours (a proxy's HTML page)", async () => {
    expect(await failureOf(client().json("GET", "/proxy"))).toMatchObject({ kind: "http", status: 502, error: undefined });
  });

  it("reports a request that got no HTTP answer as a network failure", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = await failureOf(createJsonRequest({ baseUrl: url, toError: (f) => new Failed(f) }).json("GET", "/ok"));
    expect(failure.kind).toBe("network");
  });
});
