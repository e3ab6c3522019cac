import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * A small host app on its own origin, as a team's React site would be: it takes `@sino/react`
 * from the package's BUILT output (dist/, what `npm run build:react` makes), so the browser test
 * checks what a host app would get, not the package's sources.
 */
export default defineConfig({
  root: here("."),
  plugins: [react()],
  resolve: {
    alias: [{ find: /^@sino\/react$/, replacement: here("../dist/index.js") }],
  },
  build: {
    outDir: here("./dist"),
    emptyOutDir: true,
  },
});
