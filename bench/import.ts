/**
 * `sino import` at scale (issue 20): writes a file of `--rows` (1,000,000) web-push subscriptions
 * with real P-256 keys (a pool of key pairs reused; every endpoint unique), imports it into a
 * fresh database the way `sino import` does (file stream → checks → 500-row transactions), then
 * imports it again (everything "já existiam"). Prints rows per second of each run and the
 * process's memory: RSS and heap before, the peak while importing, and after.
 *
 *   npx tsx --expose-gc bench/import.ts --rows 1000000 --dialect sqlite --format ndjson
 *   npx tsx --expose-gc bench/import.ts --rows 200000 --dialect postgres --format csv
 *
 * Memory must stay flat: what an import holds is one batch and the parser's buffer, whatever the
 * file's size; the numbers below say whether it does.
 */
import { createWriteStream, createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_ENDPOINT_POLICY } from "../src/push/endpoint-policy.js";
import { runImport } from "../src/server/import/run-import.js";
import { resolveImportSite } from "../src/server/import/import-site.js";
import { createSitesRepository } from "../src/store/sites-repository.js";
import { createSubscriptionImportRepository } from "../src/store/subscription-import-repository.js";
import { createTestDatabase } from "../test/support/db.js";
import { csvCell, subscriptionFactory } from "../test/support/import-files.js";

const { values } = parseArgs({
  options: {
    rows: { type: "string", default: "1000000" },
    dialect: { type: "string", default: "sqlite" },
    format: { type: "string", default: "ndjson" },
  },
});
const rows = Number(values.rows);
const dialect = values.dialect === "postgres" ? "postgres" : "sqlite";
const format = values.format === "csv" ? "csv" : "ndjson";

const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
const gc = (globalThis as { gc?: () => void }).gc;

async function writeFile(path: string): Promise<void> {
  const make = subscriptionFactory(512);
  const out = createWriteStream(path);
  if (format === "csv") out.write("endpoint,p256dh,auth,user_id\n");
  for (let i = 0; i < rows; i++) {
    const s = make(i);
    const line =
      format === "csv"
        ? `${[s.endpoint, s.p256dh, s.auth, i % 10 === 0 ? `pessoa-${i}` : ""].map((cell) => csvCell(cell)).join(",")}\n`
        : `${JSON.stringify({ endpoint: s.endpoint, expirationTime: null, keys: { p256dh: s.p256dh, auth: s.auth } })}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "sino-import-bench-"));
  const file = join(dir, `subscriptions.${format}`);
  const database = await createTestDatabase(dialect);
  try {
    let started = performance.now();
    await writeFile(file);
    console.log(`file: ${rows.toLocaleString("en")} rows, ${mb(statSync(file).size)} MB ${format}, written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const deps = {
      repository: createSubscriptionImportRepository(database),
      endpointPolicy: DEFAULT_ENDPOINT_POLICY,
      maxChannelsPerSubscription: 20,
      maxBytes: 4 * 1024 ** 3,
      now: Date.now,
    };
    const site = await resolveImportSite(createSitesRepository(database), undefined, 0);
    for (const run of ["first", "re-run"]) {
      gc?.();
      const before = process.memoryUsage();
      let peakRss = before.rss;
      let peakHeap = before.heapUsed;
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        peakRss = Math.max(peakRss, now.rss);
        peakHeap = Math.max(peakHeap, now.heapUsed);
      }, 100);
      started = performance.now();
      const cpuBefore = process.cpuUsage();
      let lastLog = started;
      const summary = await runImport(deps, {
        source: createReadStream(file, { highWaterMark: 256 * 1024 }),
        site,
        onProgress: ({ rows: done }) => {
          const at = performance.now();
          if (at - lastLog > 10_000) {
            lastLog = at;
            console.log(`  ${done.toLocaleString("en")} rows, rss ${mb(process.memoryUsage().rss)} MB`);
          }
        },
      });
      clearInterval(sampler);
      // CPU seconds this process used: on a shared machine, rows per CPU second is the fair figure.
      const cpu = process.cpuUsage(cpuBefore);
      const cpuSeconds = (cpu.user + cpu.system) / 1e6;
      gc?.();
      const after = process.memoryUsage();
      console.log(
        `${run}: ${summary.imported} imported, ${summary.existing} existing, ${summary.refused} refused in ${(summary.durationMs / 1000).toFixed(1)} s = ${summary.rowsPerSecond} rows/s on ${dialect} (${cpuSeconds.toFixed(1)} CPU s in this process: ${Math.round(summary.rows / cpuSeconds)} rows per CPU second); ` +
          `RSS ${mb(before.rss)} → peak ${mb(peakRss)} → ${mb(after.rss)} MB; heap used ${mb(before.heapUsed)} → peak ${mb(peakHeap)} → ${mb(after.heapUsed)} MB`,
      );
    }
  } finally {
    await database.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
