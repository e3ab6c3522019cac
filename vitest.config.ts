import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // As in vite.config.ts: Sino's pages import the React bell by its package name.
  resolve: { alias: [{ find: /^@sino\/react$/, replacement: fileURLToPath(new URL("./packages/react/src/index.ts", import.meta.url)) }] },
  test: {
    include: ["src/**/*.test.{ts,tsx}", "test/**/*.test.ts", "packages/*/src/**/*.test.{ts,tsx}"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Vitest's default is one worker per core minus one: a single worker on a 2-core machine, so the
    // files ran one after another while most of them wait on browsers, servers and timers. Every
    // storage test has a schema (PostgreSQL) or a file (SQLite) of its own and every server listens
    // on port 0, so two files can run at once.
    maxWorkers: 2,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
