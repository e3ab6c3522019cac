import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, posix } from "node:path";

/**
 * The JavaScript files a visitor of `/` downloads to start the page: what index.html loads and
 * every chunk those import statically (not the lazy ones behind `import()`, e.g. the Painel).
 * Paths relative to `webDir` (the built web app, `dist/web`), sorted.
 */
export function publicPageFiles(webDir: string): string[] {
  const html = readFileSync(join(webDir, "index.html"), "utf8");
  const entries = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(\/[^"]+\.js)"/g)].map((m) => m[1]!.slice(1));
  return staticImportsOf(webDir, entries);
}

/**
 * The Painel's shell: its entry chunk (DashboardApp, lazy from the public app) and every chunk it
 * imports statically, the files any Painel page loads before its own chunk. Paths as above.
 */
export function painelShellFiles(webDir: string): string[] {
  const entry = readdirSync(join(webDir, "assets")).find((file) => /^DashboardApp-[\w-]+\.js$/.test(file));
  if (entry === undefined) throw new Error(`${webDir}/assets has no DashboardApp chunk`);
  return staticImportsOf(webDir, [`assets/${entry}`]);
}

/** `entries` and the chunks they import statically, transitively, sorted. */
function staticImportsOf(webDir: string, entries: readonly string[]): string[] {
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
  return [...seen].sort();
}
