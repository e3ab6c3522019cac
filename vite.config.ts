import { fileURLToPath } from "node:url";
import { build, defineConfig } from "vite";
import type { Plugin } from "vite";
import react from "@vitejs/plugin-react";

const webRoot = fileURLToPath(new URL("./src/web", import.meta.url));
const serviceWorkerEntry = fileURLToPath(new URL("./src/web/sw/service-worker.ts", import.meta.url));

/**
 * Bundles the service worker into ONE classic script (IIFE) served at /sw.js: Firefox ESR does not
 * run module workers, and a worker at the root may control the whole origin (scope `/`) without a
 * Service-Worker-Allowed header. The app itself stays an ES module build.
 */
async function bundleServiceWorker(mode: string, minify: boolean): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "warn",
    mode,
    define: { "process.env.NODE_ENV": JSON.stringify(mode) },
    build: {
      write: false,
      minify,
      sourcemap: false,
      lib: { entry: serviceWorkerEntry, formats: ["iife"], name: "sinoServiceWorker", fileName: () => "sw.js" },
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!("output" in output)) continue;
    const chunk = output.output.find((item) => item.type === "chunk" && item.isEntry);
    if (chunk && chunk.type === "chunk") return chunk.code;
  }
  throw new Error("The service worker build produced no entry chunk");
}

function serviceWorkerPlugin(): Plugin {
  let mode = "production";
  return {
    name: "sino-service-worker",
    configResolved(config) {
      mode = config.mode;
    },
    configureServer(server) {
      server.middlewares.use("/sw.js", (_req, res, next) => {
        bundleServiceWorker("development", false).then((code) => {
          res.setHeader("content-type", "text/javascript; charset=utf-8");
          res.setHeader("cache-control", "no-cache");
          res.end(code);
        }, next);
      });
    },
    async generateBundle() {
      this.emitFile({ type: "asset", fileName: "sw.js", source: await bundleServiceWorker(mode, true) });
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [react(), serviceWorkerPlugin()],
  build: {
    outDir: fileURLToPath(new URL("./dist/web", import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        manualChunks(id) {
          if (/node_modules\/(@mui|@emotion)\//.test(id)) return "mui";
          if (/node_modules\/(react|react-dom|react-router|react-redux|@reduxjs|redux|scheduler|i18next|react-i18next)\//.test(id)) return "vendor";
          return undefined;
        },
      },
    },
  },
  server: {
    // `npm run dev` serves the API on 8080; the Vite dev server forwards API calls there.
    proxy: { "/api": "http://localhost:8080" },
  },
});
