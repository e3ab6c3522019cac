import { fileURLToPath } from "node:url";
import { build } from "vite";

/** Bundles a test entry (beside this file) as one classic script to inject into a page. */
export async function bundleEntry(name: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "warn",
    build: {
      write: false,
      minify: false,
      lib: { entry: fileURLToPath(new URL(`./${name}`, import.meta.url)), formats: ["iife"], name: "sinoTestBundle" },
    },
  });
  const outputs = Array.isArray(result) ? result : [result];
  for (const output of outputs) {
    if (!("output" in output)) continue;
    const chunk = output.output.find((item) => item.type === "chunk");
    if (chunk?.type === "chunk") return chunk.code;
  }
  throw new Error(`bundling ${name} produced no chunk`);
}
