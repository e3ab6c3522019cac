/**
 * What a visitor of `/` downloads to start the page (`publicPageFiles`), each file gzipped at
 * level 9 (what @fastify/static sends precompressed) and brotli'd. Run after `npm run build:web`:
 *   npx tsx bench/public-page-bytes.ts [dist/web]
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { publicPageFiles } from "../test/support/page-files.js";

const webDir = process.argv[2] ?? "dist/web";

let raw = 0;
let gzip = 0;
let brotli = 0;
for (const file of publicPageFiles(webDir)) {
  const bytes = readFileSync(join(webDir, file));
  const gz = gzipSync(bytes, { level: 9 }).length;
  const br = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  raw += bytes.length;
  gzip += gz;
  brotli += br;
  console.log(`${file}\t${bytes.length}\tgzip ${gz}\tbr ${br}`);
}
console.log(`total\t${raw}\tgzip ${gzip}\tbr ${brotli}`);
