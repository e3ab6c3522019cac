import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A tiny site for browser push tests, independent of Sino's web app: a page, and a service worker
 * that shows each push as a notification and tells the page what it got. Served on 127.0.0.1 and
 * opened as http://localhost:PORT, which browsers treat as a secure context.
 */
const PAGE = `<!doctype html><meta charset="utf-8"><title>push test</title>
<script>
  window.swMessages = [];
  navigator.serviceWorker.addEventListener("message", (event) => window.swMessages.push(event.data));
</script>`;

// The push handler acknowledges only once showNotification has resolved, and reports back to every
// page, so a test can wait for a signal instead of polling getNotifications() (which can race).
const SERVICE_WORKER = `
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("push", (event) => {
  const text = event.data ? event.data.text() : "";
  event.waitUntil((async () => {
    await self.registration.showNotification("push: " + text, { body: text, tag: "t-" + Date.now() });
    const pages = await self.clients.matchAll({ includeUncontrolled: true, type: "window" });
    for (const page of pages) page.postMessage({ kind: "shown", text });
  })());
});
`;

export async function startPushTestSite() {
  const server = createServer((req, res) => {
    if (req.url === "/sw.js") {
      res.writeHead(200, { "content-type": "text/javascript", "cache-control": "no-store" });
      res.end(SERVICE_WORKER);
    } else if (req.url === "/" || req.url === "/index.html") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    close: (): Promise<void> => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
