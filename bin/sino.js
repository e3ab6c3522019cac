#!/usr/bin/env node
// Entry point of the `sino` command: runs the compiled CLI (`npm run build:server` produces it).
// `npx sino` runs it on the project's Node.js 24 (node_modules/.bin comes first on its PATH);
// `node bin/sino.js` runs it on whatever `node` is, so the version is checked first, by a module
// that an older Node can still load (see src/cli/runtime-check.ts).
const { nodeVersionProblem } = await import("../dist/node/cli/runtime-check.js");
const problem = nodeVersionProblem(process.versions.node);
if (problem !== null) {
  process.stderr.write(`${problem}\n`);
  process.exit(1);
}
await import("../dist/node/cli/main.js");
