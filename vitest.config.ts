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
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
