import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOperatorServer, type OperatorServer } from "../../test/support/operators.js";

/** The directive list of a CSP header, by name. */
function directives(header: string | null): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values.join(" "));
  }
  return map;
}

/** A server for the enclosing suite with SINO_PUBLIC_URL = `publicUrl`. */
function useServerAt(publicUrl: string): { readonly url: string } {
  let server: OperatorServer | undefined;
  beforeAll(async () => {
    server = await startOperatorServer({ dialect: "sqlite", env: { SINO_PUBLIC_URL: publicUrl } });
  });
  afterAll(async () => {
    await server?.close();
  });
  return {
    get url() {
      return server!.url;
    },
  };
}

describe("security headers (https public URL)", () => {
  const server = useServerAt("https://sino.example.com");

  it.each([
    ["an API answer", "/api/v1/session"],
    ["an API error", "/api/v1/nada"],
    ["the public config", "/api/v1/config"],
    ["a page navigation", "/painel"],
  ])("puts the CSP, nosniff, Referrer-Policy and HSTS on %s", async (_what, path) => {
    const res = await fetch(server.url + path);
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp.get("default-src")).toBe("'self'");
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("base-uri")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("worker-src")).toBe("'self'");
    expect(csp.get("script-src")).toBe("'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
    expect(res.headers.get("strict-transport-security")).toMatch(/^max-age=31536000/);
  });

  it("lets other sites read the public subscriber API, and only that", async () => {
    expect((await fetch(server.url + "/api/v1/config")).headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const notices = await fetch(server.url + "/api/v1/notices");
    expect(notices.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    const preflightless = await fetch(server.url + "/api/v1/subscriptions", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(preflightless.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect((await fetch(server.url + "/api/v1/session")).headers.get("cross-origin-resource-policy")).toBe("same-origin");
    expect((await fetch(server.url + "/api/v1/openapi.json")).headers.get("cross-origin-resource-policy")).toBe("same-origin");
  });
});

describe("security headers (http public URL, a local test)", () => {
  const server = useServerAt("http://localhost:8080");

  it("sends no HSTS and asks for no upgrade, but keeps the rest", async () => {
    const res = await fetch(server.url + "/api/v1/config");
    expect(res.headers.get("strict-transport-security")).toBeNull();
    const csp = directives(res.headers.get("content-security-policy"));
    expect(csp.has("upgrade-insecure-requests")).toBe(false);
    expect(csp.get("default-src")).toBe("'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });
});
