import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Library mode: one ES module for bundlers. React, Redux Toolkit and the JSX runtime are the host
 * app's (peer dependencies), never bundled, so the app keeps one React and one Redux. The embed
 * core and the pt-BR texts it uses are bundled in.
 */
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: here("./dist"),
    // dist/types is tsc's (build:react runs both); the one file written here has a fixed name, so
    // nothing stale can be left behind.
    emptyOutDir: false,
    sourcemap: true,
    minify: false,
    lib: { entry: here("./src/index.ts"), formats: ["es"], fileName: () => "index.js" },
    rollupOptions: {
      external: [/^react($|\/)/, /^react-dom($|\/)/, /^@reduxjs\/toolkit($|\/)/],
    },
  },
});
