import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { loadTestTls } from "./fake-push/test-tls.js";

/** What the feed server answers to one request. */
export interface FeedAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** Streams this many bytes of `<!-- … -->` filler (a huge response), without a Content-Length. */
  readonly streamBytes?: number;
  readonly delayMs?: number;
}

export interface FeedServer {
  /** `http://127.0.0.1:<port>` or `https://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly requests: Array<{ path: string; headers: IncomingMessage["headers"] }>;
  /** Answers a request to `path`; 404 by default. */
  route(path: string, answer: (request: IncomingMessage) => FeedAnswer): void;
  close(): Promise<void>;
}

/**
 * A local server publishing feeds for the feed tests, plain http or https on the test certificate
 * (test/fixtures/tls). Each path answers what the test set for it.
 */
export async function startFeedServer(options: { https?: boolean } = {}): Promise<FeedServer> {
  const routes = new Map<string, (request: IncomingMessage) => FeedAnswer>();
  const requests: FeedServer["requests"] = [];
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? "/";
    requests.push({ path, headers: req.headers });
    const route = routes.get(path);
    const answer = route === undefined ? { status: 404, body: "" } : route(req);
    const send = () => {
      if (answer.streamBytes !== undefined) {
        res.writeHead(answer.status ?? 200, { "content-type": "application/rss+xml", ...answer.headers });
        const chunk = Buffer.from(`<!--${"x".repeat(64 * 1024 - 7)}-->`);
        let sent = 0;
        const pump = () => {
          while (sent < answer.streamBytes!) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          res.end();
        };
        res.on("error", () => undefined);
        pump();
        return;
      }
      res.writeHead(answer.status ?? 200, { "content-type": "application/rss+xml; charset=utf-8", ...answer.headers });
      res.end(answer.body ?? "");
    };
    if (answer.delayMs === undefined) send();
    else setTimeout(send, answer.delayMs);
  };
  const tls = options.https === true ? loadTestTls() : undefined;
  const server: Server = tls === undefined ? createHttpServer(handler) : createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `${tls === undefined ? "http" : "https"}://127.0.0.1:${port}`,
    requests,
    route: (path, answer) => void routes.set(path, answer),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RssItem {
  readonly guid?: string;
  readonly title: string;
  readonly link?: string;
  readonly description?: string;
  readonly image?: string;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** An RSS 2.0 document (newest item first, as sites publish them). */
export function rss(title: string, items: readonly RssItem[]): string {
  const body = items
    .map(
      (i) =>
        `<item><title>${esc(i.title)}</title>${i.link === undefined ? "" : `<link>${esc(i.link)}</link>`}${i.guid === undefined ? "" : `<guid isPermaLink="false">${esc(i.guid)}</guid>`}` +
        `${i.description === undefined ? "" : `<description>${esc(i.description)}</description>`}${i.image === undefined ? "" : `<enclosure url="${esc(i.image)}" type="image/jpeg" length="1000"/>`}</item>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>${esc(title)}</title><link>https://site.example/</link><description>x</description>\n${body}\n</channel></rss>`;
}

export interface AtomEntry {
  readonly id: string;
  readonly title: string;
  readonly link: string;
  readonly summary?: string;
  readonly image?: string;
}

/** An Atom 1.0 document, with Media RSS images. */
export function atom(title: string, entries: readonly AtomEntry[]): string {
  const body = entries
    .map(
      (e) =>
        `<entry><id>${esc(e.id)}</id><title type="text">${esc(e.title)}</title><link rel="alternate" href="${esc(e.link)}"/><updated>2026-11-26T10:00:00Z</updated>` +
        `${e.summary === undefined ? "" : `<summary type="html">${esc(e.summary)}</summary>`}${e.image === undefined ? "" : `<media:content url="${esc(e.image)}" medium="image"/>`}</entry>`,
    )
    .join("\n");
  return `<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/"><title>${esc(title)}</title><id>urn:feed</id><updated>2026-11-26T10:00:00Z</updated>\n${body}\n</feed>`;
}
