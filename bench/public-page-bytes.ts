/**
 * What a visitor of `/` downloads to start the page: the JavaScript index.html loads and every
 * chunk those import statically (not the lazy ones behind `import()`, e.g. the Painel), each
 * gzipped at level 9 (what @fastify/static sends precompressed). Run after `npm run build:web`:
 *   npx tsx bench/public-page-bytes.ts [dist/web]
 */
import { readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const webDir = process.argv[2] ?? "dist/web";
const html = readFileSync(join(webDir, "index.html"), "utf8");
const entries = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/[^"]+\.js)"/g)].map((m) => m[1]!.slice(1));

const seen = new Set<string>();
const queue = [...entries];
while (queue.length > 0) {
  const file = queue.shift()!;
  if (seen.has(file)) continue;
  seen.add(file);
  const code = readFileSync(join(webDir, file), "utf8");
  // Static imports only: `import{…}from"./x.js"` or `import"./x.js"`; `import("./x.js")` is lazy.
  for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*"(\.\/[^"]+\.js)"/g)) queue.push(posix.join(dirname(file), m[1]!));
}

let raw = 0;
let gzip = 0;
let brotli = 0;
for (const file of [...seen].sort()) {
  const bytes = readFileSync(join(webDir, file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  raw += bytes.length;
  gzip += gz;
  brotli += br;
  console.log(`${file}\t${bytes.length}\tgzip ${gz}\tbr ${br}`);
}
console.log(`total\t${raw}\tgzip ${gzip}\tbr ${brotli}`);
