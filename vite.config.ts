import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlibConstants, gzipSync } from "node:zlib";
import { build, defineConfig } from "vite";
import type { Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { baseWebManifest } from "./src/shared/web-manifest.js";

const webRoot = fileURLToPath(new URL("./src/web", import.meta.url));
const serviceWorkerEntry = fileURLToPath(new URL("./src/web/sw/service-worker.ts", import.meta.url));
const embedEntries = {
  "embed/sino.js": fileURLToPath(new URL("./src/embed/sino-entry.ts", import.meta.url)),
  "embed/sw.js": fileURLToPath(new URL("./src/embed/sw-entry.ts", import.meta.url)),
} as const;

/** One entry as ONE classic script (IIFE), nothing loaded at run time: a worker or a `<script async>`. */
async function bundleClassicScript(entry: string, mode: string, minify: boolean): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "warn",
    mode,
    define: { "process.env.NODE_ENV": JSON.stringify(mode) },
    build: {
      write: false,
      minify,
      sourcemap: false,
      lib: { entry, formats: ["iife"], name: "sinoScript", fileName: () => "script.js" },
      rollupOptions: { output: { inlineDynamicImports: true } },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!("output" in output)) continue;
    const chunk = output.output.find((item) => item.type === "chunk" && item.isEntry);
    if (chunk && chunk.type === "chunk") return chunk.code;
  }
  throw new Error(`The build of ${entry} produced no entry chunk`);
}

/**
 * Serves each entry (`fileName` -> source entry) as ONE classic script: built on each request in
 * development, emitted minified into the build.
 */
function classicScriptsPlugin(name: string, entries: Readonly<Record<string, string>>): Plugin {
  let mode = "production";
  return {
    name,
    configResolved(config) {
      mode = config.mode;
    },
    configureServer(server) {
      for (const [fileName, entry] of Object.entries(entries)) {
        server.middlewares.use(`/${fileName}`, (_req, res, next) => {
          bundleClassicScript(entry, "development", false).then((code) => {
            res.setHeader("content-type", "text/javascript; charset=utf-8");
            res.setHeader("cache-control", "no-cache");
            res.end(code);
          }, next);
        });
      }
    },
    async generateBundle() {
      for (const [fileName, entry] of Object.entries(entries)) {
        this.emitFile({ type: "asset", fileName, source: await bundleClassicScript(entry, mode, true) });
      }
    },
  };
}

/**
 * The service worker as ONE classic script (IIFE) served at /sw.js: Firefox ESR does not run
 * module workers, and a worker at the root may control the whole origin (scope `/`) without a
 * Service-Worker-Allowed header. The app itself stays an ES module build.
 */
function serviceWorkerPlugin(): Plugin {
  return classicScriptsPlugin("sino-service-worker", { "sw.js": serviceWorkerEntry });
}

/**
 * The embed (issue 9): `embed/sino.js`, the script-tag bundle a site includes, and `embed/sw.js`,
 * which a site's service worker imports (the server wraps it with Sino's URL and the site key).
 * Both framework-free classic scripts. sino.js has a byte budget (test/e2e/embed-budget.test.ts);
 * the server sends .br/.gz copies where the build writes them (preCompressed).
 */
function embedPlugin(): Plugin {
  return classicScriptsPlugin("sino-embed", embedEntries);
}

function webManifest(): string {
  return JSON.stringify(baseWebManifest(), null, 2);
}

function webManifestPlugin(): Plugin {
  return {
    name: "sino-web-manifest",
    configureServer(server) {
      server.middlewares.use("/manifest.webmanifest", (_req, res) => {
        res.setHeader("content-type", "application/manifest+json; charset=utf-8");
        res.end(webManifest());
      });
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: "manifest.webmanifest", source: webManifest() });
    },
  };
}

/** Text files worth compressing; smaller ones cost more in headers than they save. */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest)$/;
const MIN_COMPRESS_BYTES = 1024;

/**
 * Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every text file of the build,
 * so the server sends them as they are (@fastify/static `preCompressed`) instead of compressing on
 * each request, at the best ratios, which on-the-fly compression cannot afford. node:zlib does
 * both; a plugin dependency would add nothing.
 */
function precompressPlugin(): Plugin {
  let outDir = "";
  return {
    name: "sino-precompress",
    apply: "build",
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true })).filter((file) => COMPRESSIBLE.test(file));
      for (const file of files) {
        const path = join(outDir, file);
        const bytes = await readFile(path);
        if (bytes.length < MIN_COMPRESS_BYTES) continue;
        await writeFile(`${path}.br`, brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
        await writeFile(`${path}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [react(), serviceWorkerPlugin(), embedPlugin(), webManifestPlugin(), precompressPlugin()],
  // Sino's own pages take the bell from @sino/react's sources, by the package's name (as a host app
  // would), so they run the same client, provider and hook as everyone else (issue 22).
  resolve: { alias: [{ find: /^@sino\/react$/, replacement: fileURLToPath(new URL("./packages/react/src/index.ts", import.meta.url)) }] },
  build: {
    outDir: fileURLToPath(new URL("./dist/web", import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
    rollupOptions: {
      output: {
        // Libraries change less often than the app: a separate chunk stays cached across releases.
        // MUI is left to Rollup on purpose: one "mui" chunk held every component the Painel uses
        // (and its charts), and the public pages downloaded all of it; split by use, the public
        // pages load only the components they render.
        manualChunks(id) {
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
