import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REQUIRED_NODE_MAJOR, nodeVersionProblem } from "./runtime-check.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * PATH as a person's shell has it: without the node_modules/.bin directories npm puts first for
 * scripts (vitest runs under one), so `npm` and `node` are the machine's own.
 */
const shellPath = (process.env.PATH ?? "")
  .split(delimiter)
  .filter((dir) => !dir.endsWith(join("node_modules", ".bin")))
  .join(delimiter);

function machineNode(): string | undefined {
  const found = shellPath.split(delimiter).map((dir) => join(dir, "node")).find((path) => existsSync(path));
  return found;
}

describe("the Node.js version check", () => {
  it("accepts Node 24 and later, and refuses older ones in pt-BR, naming npx sino", () => {
    expect(nodeVersionProblem(`${REQUIRED_NODE_MAJOR}.0.0`)).toBeNull();
    expect(nodeVersionProblem("v25.1.0")).toBeNull();
    expect(nodeVersionProblem("20.20.2")).toBe(
      "O Sino precisa do Node.js 24 ou mais novo, e este é o 20.20.2. Rode npx sino …, que usa o Node.js 24 instalado pelo npm ci (ou node_modules/.bin/node bin/sino.js …).",
    );
    expect(nodeVersionProblem("22.9.0")).toContain("npx sino");
  });
});

describe("npx sino", () => {
  const cache = mkdtempSync(join(tmpdir(), "sino-npx-cache-"));
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  const npx = () =>
    spawnSync("npm", ["exec", "--offline", "--cache", cache, "--", "sino", "--help"], {
      cwd: root,
      env: { ...process.env, PATH: shellPath, NO_COLOR: "1", npm_config_loglevel: "warn" },
      encoding: "utf8",
      timeout: 120_000,
    });

  it("prints no npm engine warning, on the first run in a fresh npm cache nor on the next", () => {
    // npm checks package.json's `engines` against the Node running npm (the machine's, often older
    // than the Node 24 the project brings), when it links the project into its npx cache: a fresh
    // cache is the case that warned. The CLI itself needs dist/ (npm run build:server); what npm
    // prints before running it does not.
    for (const run of [npx(), npx()]) {
      expect(run.error).toBeUndefined();
      expect(run.stderr).not.toMatch(/EBADENGINE|Unsupported engine/);
      expect(run.stderr).not.toMatch(/^npm warn/m);
    }
  });

  it("runs the CLI on the project's Node, not the machine's", () => {
    if (!existsSync(join(root, "dist", "node", "cli", "main.js"))) return; // needs npm run build:server
    const run = npx();
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Uso: sino /);
  });

  it("refuses, in pt-BR, to run on an older machine Node without npx", () => {
    const node = machineNode();
    if (node === undefined || !existsSync(join(root, "dist", "node", "cli", "runtime-check.js"))) return;
    const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
    const run = spawnSync(node, [join(root, "bin", "sino.js"), "--help"], { encoding: "utf8" });
    if (nodeVersionProblem(version) === null) {
      expect(run.status).toBe(0);
    } else {
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`${nodeVersionProblem(version.replace(/^v/, ""))}\n`);
    }
  });
});
