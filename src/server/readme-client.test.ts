import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addToken, setUpAdmin } from "../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";

const run = promisify(execFile);
const README_HOST = "https://sino.exemplo.com.br";

/** The README's typed-client example: the `sh` block with the generator's command and the `ts` block after the marker. */
async function readmeExample(): Promise<{ generate: string; code: string }> {
  const readme = await readFile(resolve("README.md"), "utf8");
  const at = readme.indexOf("<!-- typed-client-example");
  if (at < 0) throw new Error("README.md has no <!-- typed-client-example --> marker");
  const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(at))?.[1];
  const shell = /```sh\n([\s\S]*?)```/.exec(readme.slice(readme.lastIndexOf("```sh", at)))?.[1];
  const generate = shell?.split("\n").find((line) => line.startsWith("npx openapi-typescript "));
  if (code === undefined || generate === undefined) throw new Error("README.md's typed-client example is incomplete");
  return { generate, code };
}

// Issue 23 item 11: the README shows a typed client generated from the document creating a notification.
// This runs what it shows: the generator's command against a real server's document, the
// example compiled by TypeScript (strict) against the generated types, then run against the server.
describe("the README's typed client", () => {
  let server: TestServer;
  let secret: string;
  let dir: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    const admin = await setUpAdmin({ url: server.url, origin: server.url });
    secret = (await addToken(admin, "publish", "readme")).secret;
    // Inside the project so that `openapi-fetch` resolves from its node_modules, as in a user's project.
    await mkdir(resolve("node_modules/.cache"), { recursive: true });
    dir = await mkdtemp(resolve("node_modules/.cache/sino-readme-client-"));
  });
  afterAll(async () => {
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("generates the types, compiles the example without an error, and creates a send with it", async () => {
    const { generate, code } = await readmeExample();
    // `npx openapi-typescript URL -o sino-api.d.ts`, pointed at this server and this folder.
    const [, , url, flag, output] = generate.split(/\s+/);
    expect([url, flag, output]).toEqual([`${README_HOST}/api/v1/openapi.json`, "-o", "sino-api.d.ts"]);
    await run(process.execPath, [resolve("node_modules/openapi-typescript/bin/cli.js"), url!.replace(README_HOST, server.url), "-o", join(dir, output!)], { cwd: dir });
    expect(await readFile(join(dir, output!), "utf8")).toContain('"/api/v1/notifications"');

    expect(code).toContain(README_HOST);
    const example = join(dir, "example.mts");
    await writeFile(example, code.replace(README_HOST, server.url));
    const program = ts.createProgram([example], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ["node"],
      typeRoots: [resolve("node_modules/@types")],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(diagnostics).toEqual([]);

    const { stdout } = await run(resolve("node_modules/.bin/tsx"), [example], { cwd: dir, env: { ...process.env, SINO_TOKEN: secret } });
    // The example prints the created notification's id and status, as the server answered them.
    const printed = /^Envio (\d+): (\w+)$/m.exec(stdout);
    expect(printed, stdout).not.toBeNull();
    const stored = await server.database.db.selectFrom("notifications").select(["title", "body", "status"]).where("id", "=", Number(printed![1])).executeTakeFirstOrThrow();
    expect(stored).toEqual({ title: "Manutenção às 22h", body: "O sistema fica fora do ar por 30 minutos.", status: printed![2] });
  });

  it("would catch a wrong field: the generated types refuse it at compile time", async () => {
    const example = join(dir, "wrong.mts");
    await writeFile(
      example,
      `import createClient from "openapi-fetch";\nimport type { paths } from "./sino-api.js";\nconst sino = createClient<paths>({ baseUrl: "${server.url}" });\nawait sino.POST("/api/v1/notifications", { body: { titulo: "x" } });\n`,
    );
    const program = ts.createProgram([example], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [] });
    const messages = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(messages.join("\n")).toMatch(/titulo|title/);
  });
});
