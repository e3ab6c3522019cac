import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startOperatorServer } from "../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";

const run = promisify(execFile);
const REDOCLY = resolve("node_modules/@redocly/cli/bin/cli.js");
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"] as const;

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
}
type Document = { paths: Record<string, Partial<Record<(typeof METHODS)[number], Operation>>> } & Record<string, unknown>;

function operations(doc: Document): { name: string; operation: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => (item[method] === undefined ? [] : [{ name: `${method.toUpperCase()} ${path}`, operation: item[method] }])),
  );
}

/** One line per operation without an operationId, naming it so whoever merged the route knows what to fix. */
function missingOperationIds(doc: Document): string[] {
  return operations(doc)
    .filter(({ operation }) => typeof operation.operationId !== "string" || operation.operationId === "")
    .map(({ name }) => `${name} has no operationId: add one (camelCase verb + noun) to its route's schema`);
}

interface Problem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

/** "#/paths/~1api~1v1~1users/post/responses" → "POST /api/v1/users (createUser)": which operation a problem is in. */
function whereIs(doc: Document, pointer: string | undefined): string {
  const parts = (pointer ?? "").replace(/^#\//, "").split("/").map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (parts[0] !== "paths" || parts[1] === undefined) return pointer ?? "?";
  const method = parts[2] as (typeof METHODS)[number] | undefined;
  const operation = method === undefined ? undefined : doc.paths[parts[1]]?.[method];
  if (operation === undefined) return parts[1];
  return `${method!.toUpperCase()} ${parts[1]} (${operation.operationId ?? "no operationId"})`;
}

// The document integrators' tools read, checked as they read it: Redocly CLI's recommended
// rules (the ones issue 23 ran), on the full server (sends included).
describe("the OpenAPI document, as Redocly CLI reads it", () => {
  let server: TestServer;
  let doc: Document;
  let dir: string;
  beforeAll(async () => {
    // A real public address: Redocly warns about a server on localhost or example.com.
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false", SINO_PUBLIC_URL: "https://sino.empresa.com.br" } });
    doc = (await (await fetch(`${server.url}/api/v1/openapi.json`)).json()) as Document;
    dir = await mkdtemp(join(tmpdir(), "sino-openapi-"));
  });
  afterAll(async () => {
    await server?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("gives every operation its own operationId (routes added without one are named here)", () => {
    expect(missingOperationIds(doc)).toEqual([]);
    const ids = operations(doc).map(({ operation }) => operation.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i), "operationIds used twice").toEqual([]);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it("says where the API is, under which licence, and marks public routes with an empty security", () => {
    expect(doc.servers).toEqual([{ url: "https://sino.empresa.com.br", description: expect.any(String) }]);
    expect(doc.info).toMatchObject({ license: { name: expect.any(String), url: "https://sino.empresa.com.br" } });
    const publicOps = operations(doc).filter(({ operation }) => Array.isArray(operation.security) && operation.security.length === 0);
    expect(publicOps.map(({ operation }) => operation.operationId).sort()).toEqual(
      [
        "createFirstAdmin",
        "createSubscription",
        "deleteSubscription",
        "forgetSubscriptionUser",
        "getOrganisation",
        "getOrganisationLogo",
        "getPublicConfig",
        "getPrivacy",
        "getSetupStatus",
        "getHealth",
        "getReadiness",
        "identifySubscription",
        "listNotices",
        "reportNotificationEvent",
        "setSubscriptionChannels",
        "setSubscriptionTags",
        "signIn",
        "streamNotices",
        // privacy (issue 18, LGPD)
        "eraseMyData",
        "exportMyData",
        "getSubscriptionQuietHours",
        "setSubscriptionQuietHours",
      ].sort(),
    );
  });

  it("documents the CSV and event-stream answers by their content types", () => {
    const media = (path: string) => Object.keys(doc.paths[path]?.get?.responses?.["200"]?.content ?? {});
    expect(media("/api/v1/subscribers.csv")).toEqual(["text/csv"]);
    expect(media("/api/v1/notifications/{id}/results.csv")).toEqual(["text/csv"]);
    expect(media("/api/v1/notices/stream")).toEqual(["text/event-stream"]);
    expect(media("/api/v1/notifications/{id}/events")).toEqual(["text/event-stream"]);
  });

  it("documents only the 201 a send's creation answers with (a replay answers 201 too)", () => {
    expect(Object.keys(doc.paths["/api/v1/notifications"]?.post?.responses ?? {}).sort()).toEqual(["201", "4XX"]);
    expect(Object.keys(doc.paths["/p/{channel}"]?.post?.responses ?? {}).sort()).toEqual(["201", "4XX"]);
  });

  it("refuses unknown fields in every JSON body it documents", () => {
    const open = operations(doc).flatMap(({ name, operation }) => {
      const schema = operation.requestBody?.content?.["application/json"]?.schema;
      if (schema === undefined) return [];
      const variants = (schema.anyOf ?? schema.oneOf ?? [schema]) as Record<string, unknown>[];
      return variants.some((v) => v.type === "object" && v.additionalProperties !== false) ? [name] : [];
    });
    expect(open.map((name) => `${name}: its body schema accepts unknown fields (use z.strictObject)`)).toEqual([]);
  });

  it("passes `redocly lint` (recommended rules) with no error and no warning", async () => {
    const file = join(dir, "openapi.json");
    await writeFile(file, JSON.stringify(doc));
    await writeFile(join(dir, "redocly.yaml"), "extends:\n  - recommended\n");
    const { stdout } = await run(process.execPath, [REDOCLY, "lint", file, "--config", join(dir, "redocly.yaml"), "--format=json"], {
      cwd: dir,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
    }).catch((error: { stdout?: string; stderr?: string }) => {
      // Exit code 1 when there are errors: the JSON report is still on stdout.
      if (error.stdout === undefined || error.stdout === "") throw new Error(`redocly did not run: ${error.stderr ?? String(error)}`);
      return { stdout: error.stdout };
    });
    const report = JSON.parse(stdout) as { problems: Problem[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${whereIs(doc, p.location[0]?.pointer)}: ${p.message}`);
    expect(problems).toEqual([]);
  });

  it("names a route added without an operationId (the check can fail)", async () => {
    const other = await startOperatorServer({
      dialect: "sqlite",
      beforeListen: (app) => {
        app.get("/api/v1/merged-later", { schema: { summary: "x", tags: ["x"], security: [], response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({ ok: true }));
      },
    });
    try {
      const otherDoc = (await (await fetch(`${other.url}/api/v1/openapi.json`)).json()) as Document;
      expect(missingOperationIds(otherDoc)).toEqual(["GET /api/v1/merged-later has no operationId: add one (camelCase verb + noun) to its route's schema"]);
    } finally {
      await other.close();
    }
  });
});
