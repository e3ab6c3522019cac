/**
 * The browser tests run against the BUILT web app (dist/web, as the server serves it in
 * production). A missing or stale build would make them test old code or time out obscurely, so
 * they fail first with what to run.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../..", import.meta.url));
const SOURCES = ["src/web", "src/client", "src/embed", "src/shared", "vite.config.ts"];
const BUILT = ["dist/web/index.html", "dist/web/sw.js"];

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

export function requireBuiltWebApp(): void {
  let builtAt: number;
  try {
    builtAt = Math.min(...BUILT.map((file) => statSync(join(root, file)).mtimeMs));
  } catch {
    throw new Error("dist/web is missing: run `npm run build:web` first (`npm test` does it for you).");
  }
  const changedAt = Math.max(...SOURCES.map((path) => newestMtime(join(root, path))));
  if (changedAt > builtAt) {
    throw new Error("dist/web is older than src/web: run `npm run build:web` first (`npm test` does it for you).");
  }
}
