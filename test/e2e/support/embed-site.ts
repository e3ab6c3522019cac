/**
 * A site that embeds Sino (issue 9), on its own origin: a tiny static server on 127.0.0.1 serving
 * a page with the snippet, the one-line service worker, and a "PWA" worker that has its own fetch
 * handler and imports Sino's. Sino runs on another port (another origin) as the real test server.
 */
import { once } from "node:events";
import { createServer as createNetServer } from "node:net";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { setUpAdmin, type ApiClient } from "../../support/operators.js";
import { startTestServer, type TestServer, type TestServerOptions } from "../../support/server.js";

/** What the site's own worker answers for /hello, so a test can tell it from the network's answer. */
export const SITE_WORKER_HELLO = "olá do service worker do site";
export const NETWORK_HELLO = "olá da rede";

export interface EmbedSite {
  /** `http://localhost:<port>`: the site's origin (a secure context for the browser). */
  readonly origin: string;
  readonly port: number;
  /** The page with the snippet; `data` become the script tag's `data-*` attributes. */
  pageUrl(options?: { bell?: boolean; data?: Record<string, string>; host?: string }): string;
  /** The key the pages and worker lines carry from now on (known once the origin is registered). */
  setSiteKey(key: string | null): void;
  close(): Promise<void>;
}

export interface EmbedSiteOptions {
  /** Sino's address, as the snippet names it. */
  readonly sinoUrl: string;
  /** The site key (`data-site` and `?site=` of the worker line); null for none. */
  readonly siteKey: string | null;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function page(sinoUrl: string, siteKey: string | null, query: URLSearchParams): string {
  const attributes = [...query.entries()]
    .filter(([name]) => name.startsWith("data-"))
    .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
    .join("");
  const site = siteKey === null ? "" : ` data-site="${escapeAttribute(siteKey)}"`;
  const bell = query.get("bell") === "0" ? "" : "<sino-bell></sino-bell>";
  // `?record-clicks=1`: the page keeps every `sino:click` it receives (localStorage `sinoClicks`), listening before sino.js runs.
  const recorder =
    query.get("record-clicks") === "1"
      ? `<script>addEventListener("sino:click", (e) => { const all = JSON.parse(localStorage.getItem("sinoClicks") || "[]"); all.push({ detail: e.detail, href: location.href }); localStorage.setItem("sinoClicks", JSON.stringify(all)); });</script>\n`
      : "";
  return `<!doctype html>
<html lang="pt-BR">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Jornal de Exemplo</title></head>
<body>
<header><a href="/">Jornal de Exemplo</a> ${bell}</header>
<main><h1>Últimas notícias</h1><p>Um site qualquer que mostra o sino do Sino.</p></main>
${recorder}<script src="${sinoUrl}/embed/sino.js"${site}${attributes} async></script>
</body>
</html>`;
}

function workerLine(sinoUrl: string, siteKey: string | null): string {
  const query = siteKey === null ? "" : `?site=${encodeURIComponent(siteKey)}`;
  return `importScripts(${JSON.stringify(`${sinoUrl}/embed/sw.js${query}`)});\n`;
}

/** A PWA's worker: its own lifecycle and fetch handler, plus the one line that adds Sino. */
function pwaWorker(sinoUrl: string, siteKey: string | null): string {
  return `self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("fetch", (event) => {
  if (new URL(event.request.url).pathname === "/hello") {
    event.respondWith(new Response(${JSON.stringify(SITE_WORKER_HELLO)}, { headers: { "content-type": "text/plain; charset=utf-8" } }));
  }
});
${workerLine(sinoUrl, siteKey)}`;
}

export async function startEmbedSite(options: EmbedSiteOptions): Promise<EmbedSite> {
  let siteKey = options.siteKey;
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const js = { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-store" };
    if (url.pathname === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
      res.end(page(options.sinoUrl, siteKey, url.searchParams));
    } else if (url.pathname === "/sino-sw.js") {
      res.writeHead(200, js);
      res.end(workerLine(options.sinoUrl, siteKey));
    } else if (url.pathname === "/pwa-sw.js") {
      res.writeHead(200, js);
      res.end(pwaWorker(options.sinoUrl, siteKey));
    } else if (url.pathname === "/hello") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
      res.end(NETWORK_HELLO);
    } else if (url.pathname === "/favicon.ico") {
      res.writeHead(204).end();
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const origin = `http://localhost:${port}`;
  return {
    origin,
    port,
    pageUrl({ bell = true, data = {}, host } = {}) {
      const query = new URLSearchParams(data);
      if (!bell) query.set("bell", "0");
      const text = query.toString();
      return `http://${host ?? "localhost"}:${port}/${text === "" ? "" : `?${text}`}`;
    },
    setSiteKey(key) {
      siteKey = key;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A free TCP port on 127.0.0.1 (the server takes it right after; nothing else here races for it). */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  probe.listen(0, "127.0.0.1");
  await once(probe, "listening");
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/**
 * Sino's test server with SINO_PUBLIC_URL at its real address: `/embed/sw.js` bakes that URL into
 * the worker a site imports, so it must be where the browser can reach Sino.
 */
export async function startSinoForEmbed(options: TestServerOptions = {}): Promise<TestServer> {
  const port = await freePort();
  return startTestServer({
    ...options,
    env: { SINO_PORT: String(port), SINO_PUBLIC_URL: `http://localhost:${port}`, ...options.env },
  });
}

/** Signs in as the first admin of a fresh Sino. */
export async function adminOf(sino: TestServer): Promise<ApiClient> {
  return setUpAdmin({ url: sino.url, origin: sino.baseUrl });
}

/** Registers `origin` as a site (Painel → Sites) and returns its id and public key. */
export async function registerSite(admin: ApiClient, origin: string): Promise<{ id: string; key: string }> {
  const res = await admin.post("/api/v1/sites", { origin });
  if (res.status !== 201) throw new Error(`site registration failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: String(res.body.site.id), key: String(res.body.site.key) };
}
