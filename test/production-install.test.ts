/**
 * The production install (README, "Em produção"): build once, then `npm ci --omit=dev` (or
 * `npm prune --omit=dev`) keeps only `dependencies`. This checks, without reinstalling anything,
 * that what the compiled server and CLI import at run time is all there: every import that
 * survives compilation (type-only ones are erased, `verbatimModuleSyntax`) of every file
 * tsconfig.server.json compiles names a Node built-in or a package in `dependencies` — and that
 * `dependencies` holds nothing else, so the build tools and the web app's sources (bundled into
 * dist/web by Vite) stay out of a production install.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const serverConfig = JSON.parse(readFileSync("tsconfig.server.json", "utf8")) as { include: string[] };

/** Packages in `dependencies` the server does not import, each with the reason it is there. */
const RUNTIME_WITHOUT_IMPORT: Record<string, string> = {
  // The Node.js 24 that `npx sino` and the npm scripts run on (node_modules/.bin/node).
  node: "runtime",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** Specifiers a file still imports once compiled: static, re-exports and dynamic `import()`. */
function runtimeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly !== true && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] !== undefined && ts.isStringLiteral(node.arguments[0])) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const builtins = new Set(builtinModules);
const isBuiltin = (specifier: string) => specifier.startsWith("node:") || builtins.has(specifier.split("/")[0]!);

describe("a production install (npm ci --omit=dev after the build)", () => {
  const files = serverConfig.include.flatMap(sourceFiles);
  const used = new Map<string, string>();
  for (const file of files) {
    for (const specifier of runtimeImports(file)) {
      const name = packageOf(specifier);
      if (name !== undefined && !isBuiltin(specifier) && !used.has(name)) used.set(name, file);
    }
  }

  it("finds the server's sources and the packages they import", () => {
    expect(files.length).toBeGreaterThan(100);
    expect([...used.keys()]).toEqual(expect.arrayContaining(["fastify", "kysely", "better-sqlite3", "pg", "pino", "commander"]));
  });

  it("has every package the compiled server and CLI import in dependencies", () => {
    const missing = [...used].filter(([name]) => pkg.dependencies[name] === undefined).map(([name, file]) => `${name} (imported by ${file})`);
    expect(missing).toEqual([]);
  });

  it("keeps build-only packages (the web app's React and MUI, compilers, test tools) out of dependencies", () => {
    const unused = Object.keys(pkg.dependencies).filter((name) => !used.has(name) && RUNTIME_WITHOUT_IMPORT[name] === undefined);
    expect(unused).toEqual([]);
    expect(Object.keys(pkg.dependencies).filter((name) => pkg.devDependencies[name] !== undefined)).toEqual([]);
  });

  it("starts from bin/sino.js, which loads only the compiled CLI", () => {
    const bin = readFileSync("bin/sino.js", "utf8");
    const imports = [...bin.matchAll(/import\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1]);
    expect(imports).toEqual(["../dist/node/cli/runtime-check.js", "../dist/node/cli/main.js"]);
  });
});
