/**
 * What a signed-in operator's browser downloads to show the Painel's first page (Visão geral,
 * /painel): the real server on a fresh database, a first admin signed in through the API, and a
 * fresh Chromium context (empty cache) opening /painel until the page's heading shows and no more
 * JavaScript arrives. Counts every JavaScript response the page received: its size as served
 * (decoded), as it crossed the wire (with the Content-Encoding the server chose for this Chromium)
 * and gzipped at level 9 (what @fastify/static sends precompressed, so figures compare across
 * browsers). Run after `npm run build:web`:
 *   npx tsx bench/painel-bytes.ts [dist/web]
 */
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import type { Response } from "playwright-core";
import { ptBR } from "../src/shared/i18n/catalog.js";
import { launchChromium } from "../test/support/browser.js";
import { startTestServer } from "../test/support/server.js";
import { ADMIN, createFirstAdmin, signInContext } from "../test/e2e/support/dashboard-page.js";

const webDir = resolve(process.argv[2] ?? "dist/web");
/** Lazy chunks may follow the heading (a page's charts); the page is done once none came for this long. */
const QUIET_MS = 1500;

interface Download {
  path: string;
  raw: number;
  wire: number;
  encoding: string;
  gzip: number;
}

async function downloadOf(response: Response): Promise<Download> {
  const body = await response.body();
  const sizes = await response.request().sizes();
  return {
    path: new URL(response.url()).pathname,
    raw: body.length,
    wire: sizes.responseBodySize,
    encoding: (await response.headerValue("content-encoding")) ?? "identity",
    gzip: gzipSync(body, { level: 9 }).length,
  };
}

const server = await startTestServer({ env: { SINO_WEB_DIR: webDir } });
const browser = await launchChromium();
try {
  await createFirstAdmin(server.url);
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  await signInContext(context, server.baseUrl, ADMIN);
  const page = await context.newPage();
  const pending: Promise<Download>[] = [];
  let lastScriptAt = Date.now();
  page.on("response", (response) => {
    if (!/javascript/.test(response.headers()["content-type"] ?? "")) return;
    lastScriptAt = Date.now();
    pending.push(downloadOf(response));
  });
  await page.goto(`${server.baseUrl}/painel`);
  await page.getByRole("heading", { level: 1, name: ptBR.dashboard.overview.title, exact: true }).waitFor({ timeout: 30_000 });
  while (Date.now() - lastScriptAt < QUIET_MS) await page.waitForTimeout(250);
  if (new URL(page.url()).pathname !== "/painel") throw new Error(`/painel led to ${page.url()}, not the overview`);

  const downloads = (await Promise.all(pending)).sort((a, b) => a.path.localeCompare(b.path));
  const total = { raw: 0, wire: 0, gzip: 0 };
  for (const download of downloads) {
    total.raw += download.raw;
    total.wire += download.wire;
    total.gzip += download.gzip;
    console.log(`${download.path}\t${download.raw}\twire ${download.wire} (${download.encoding})\tgzip ${download.gzip}`);
  }
  console.log(`total (${downloads.length} files)\t${total.raw}\twire ${total.wire}\tgzip ${total.gzip}`);
  await context.close();
} finally {
  await browser.close();
  await server.close();
}
