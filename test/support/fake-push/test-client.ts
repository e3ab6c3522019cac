import { connect, type ClientHttp2Session, type IncomingHttpHeaders } from "node:http2";
import { request } from "node:https";
import { loadTestTls } from "./test-tls.js";

/** A plain client for tests of the fake push services: HTTP/2 session or one HTTP/1.1 request. */
export interface PushReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export type PushHeaders = Readonly<Record<string, string | number>>;

export function createH2Client(origin: string, ca: string = loadTestTls().ca) {
  const session: ClientHttp2Session = connect(origin, { ca });
  session.on("error", () => {
    // surfaced per request; a session error must not crash the test process
  });
  return {
    session,
    post(path: string, headers: PushHeaders, body?: Buffer): Promise<PushReply> {
      return new Promise<PushReply>((resolve, reject) => {
        const stream = session.request({ ":method": "POST", ":path": path, ...lowercase(headers) });
        let status = 0;
        let responseHeaders: IncomingHttpHeaders = {};
        const chunks: Buffer[] = [];
        stream.on("response", (h) => {
          status = Number(h[":status"]);
          responseHeaders = h;
        });
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if (status === 0) reject(new Error("stream ended without a response"));
          else resolve({ status, headers: responseHeaders, body: Buffer.concat(chunks) });
        });
        stream.on("error", reject);
        stream.on("close", () => {
          // A promise settles once; this only matters when neither `end` nor `error` came.
          if (status === 0) reject(new Error(`stream closed without a response (RST code ${stream.rstCode ?? "none"})`));
        });
        stream.end(body);
      });
    },
    close(): Promise<void> {
      if (session.destroyed) return Promise.resolve();
      return new Promise((resolve) => {
        session.once("close", () => resolve());
        session.close();
      });
    },
  };
}

export type H2Client = ReturnType<typeof createH2Client>;

/** One HTTP/1.1 request on a fresh connection (no ALPN offered, so the server falls back to 1.1). */
export function http1Post(url: string, headers: PushHeaders, body?: Buffer, ca: string = loadTestTls().ca): Promise<PushReply> {
  return new Promise<PushReply>((resolve, reject) => {
    const req = request(url, { method: "POST", ca, agent: false, headers: lowercase(headers) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

function lowercase(headers: PushHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name.toLowerCase()] = String(value);
  return out;
}
