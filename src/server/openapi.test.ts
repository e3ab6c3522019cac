import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOperatorServer, type OperatorServer } from "../../test/support/operators.js";

describe("the OpenAPI document and the docs page", () => {
  let server: OperatorServer;
  beforeAll(async () => {
    server = await startOperatorServer({ dialect: "sqlite" });
  });
  afterAll(async () => {
    await server.close();
  });

  it("documents every API route from the zod schemas that validate them", async () => {
    const res = await fetch(`${server.url}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/api/v1/config",
        "/api/v1/session",
        "/api/v1/setup",
        "/api/v1/subscriptions",
        "/api/v1/tokens",
        "/api/v1/tokens/{id}",
        "/api/v1/users",
        "/api/v1/users/{id}",
        "/api/v1/users/{id}/password-reset",
        "/api/v1/session/password",
        "/api/v1/channels",
        "/api/v1/channels/{id}",
        "/api/v1/events",
        "/api/v1/notices",
        "/api/v1/notices/stream",
        "/api/v1/notifications/{id}/results.csv",
        "/api/v1/stats",
        "/api/v1/subscribers",
        "/api/v1/subscribers.csv",
        "/api/v1/subscribers/{id}",
        "/api/v1/subscriptions/channels",
        "/api/v1/sites",
        "/api/v1/sites/{id}",
        "/api/v1/organisation",
        "/api/v1/organisation/logo",
        "/api/v1/sites/{id}/identity-secret",
        "/api/v1/sites/{id}/vapid-key",
        "/api/v1/segments",
        "/api/v1/segments/{id}",
        "/api/v1/subscriptions/user",
        "/api/v1/people/{userId}/subscriptions",
        "/api/v1/people",
        "/api/v1/people/{userId}",
        "/api/v1/people/{userId}/notifications",
        "/api/v1/segments/count",
        "/api/v1/segments/explain",
        "/api/v1/people/{userId}/tags",
        "/api/v1/people/{userId}/tags/{key}",
        "/api/v1/people/tags",
        "/api/v1/subscriptions/tags",
        "/api/v1/notifications/{id}/recipients",
        "/api/v1/webhooks",
        "/api/v1/webhooks/{id}",
        "/api/v1/webhooks/{id}/secret",
        "/api/v1/webhooks/{id}/messages",
        "/api/v1/webhooks/{id}/messages/{messageId}/resend",
        "/api/v1/webhooks/{id}/test",
        "/api/v1/templates",
        "/api/v1/templates/{id}",
        "/api/v1/audit",
        "/api/v1/audit.csv",
        "/api/v1/privacy",
        "/api/v1/subscribers/import",
        "/api/v1/feeds",
        "/api/v1/feeds/{id}",
        "/api/v1/feeds/{id}/poll",
        "/api/v1/feeds/{id}/items",
        "/api/v1/feeds/{id}/items/{itemId}/approve",
        "/api/v1/feeds/{id}/items/{itemId}/dismiss",
        // privacy (issue 18, LGPD)
        "/api/v1/subscriptions/data",
        "/api/v1/privacy/subscriptions/{subscriptionId}",
        "/api/v1/privacy/people/{userId}",
        "/api/v1/subscriptions/quiet-hours",
        "/api/v1/subscriptions/quiet-hours/lookup",
        "/api/v1/stats/engagement",
      ].sort(),
    );
    const createUser = doc.paths["/api/v1/users"].post;
    const body = createUser.requestBody.content["application/json"].schema;
    // The limits the server enforces, as the document states them.
    expect(body.properties.password).toMatchObject({ type: "string", minLength: 8, maxLength: 256 });
    expect(body.properties.role.enum).toEqual(["admin", "publisher"]);
    expect(body.required).toEqual(["name", "email", "password", "role"]);
    expect(createUser.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(createUser.summary).toBe("Criar usuário");
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    const token = doc.paths["/api/v1/tokens"].post.responses["201"].content["application/json"].schema;
    expect(token.required).toEqual(["token", "secret"]);
    expect(doc.paths["/api/v1/subscriptions"].post.requestBody.content["application/json"].schema.required).toEqual(["endpoint", "keys"]);
    // Sites: the routes, their tag, and the site key a registration may carry.
    expect(doc.paths["/api/v1/subscriptions"].post.requestBody.content["application/json"].schema.properties.site).toMatchObject({ type: "string" });
    expect(doc.paths["/api/v1/sites"].post.tags).toEqual(["Sites"]);
    expect(doc.paths["/api/v1/webhooks"].post.tags).toEqual(["Webhooks"]);
    expect(doc.paths["/api/v1/webhooks"].post.description).toContain("webhook-signature");
    expect(doc.paths["/api/v1/feeds"].post.tags).toEqual(["Feeds"]);
    expect(doc.paths["/api/v1/feeds"].post.requestBody.content["application/json"].schema.required).toEqual(["url", "mode"]);
    expect(doc.paths["/api/v1/sites"].post.requestBody.content["application/json"].schema.required).toEqual(["origin"]);
    expect(doc.paths["/api/v1/sites/{id}"].delete.responses["200"].content["application/json"].schema.required).toEqual(["removedSubscribers"]);
    expect(doc.paths["/api/v1/config"].get.parameters.map((p: { name: string }) => p.name)).toContain("site");
  });

  it("serves the docs page as pt-BR HTML from this server, with no script and nothing from a CDN", async () => {
    const res = await fetch(`${server.url}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toContain('<html lang="pt-BR">');
    expect(html).toContain("<h1>API do Sino</h1>");
    expect(html).not.toMatch(/<script/i);
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    for (const source of sources) expect(source).not.toMatch(/^(https?:)?\/\//);
    // Every operation, by its operationId, with the limits the server enforces.
    expect(html).toContain('id="op-createUser"');
    expect(html).toContain("<code>password</code> — texto (de 8 a 256 caracteres), <strong>obrigatório</strong>");
    expect(html).toContain("Pública: não pede credenciais");
    expect(html).not.toContain("Default Response");
    expect((await fetch(`${server.url}/api/docs/`)).status).toBe(200);
  });
});
