import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ROUTES } from "../../shared/api/routes.js";
import { startTestServer, type TestServer } from "../../../test/support/server.js";

/** The table app.ts kept by hand until issue 22: the Allow headers must read as they did. */
const HAND_KEPT: readonly (readonly [string, string])[] = [
  [API_ROUTES.config, "GET, HEAD"],
  [API_ROUTES.subscriptions, "POST, DELETE"],
  [API_ROUTES.setup, "GET, HEAD, POST"],
  [API_ROUTES.session, "GET, HEAD, POST, DELETE"],
  [API_ROUTES.users, "GET, HEAD, POST"],
  [API_ROUTES.tokens, "GET, HEAD, POST"],
  [API_ROUTES.subscriptionChannels, "PUT"],
  [API_ROUTES.subscriptionUser, "PUT, DELETE"],
  [API_ROUTES.subscriptionTags, "PUT"],
  [API_ROUTES.peopleTags, "POST"],
  [API_ROUTES.channels, "GET, HEAD, POST"],
  [API_ROUTES.events, "POST"],
  [API_ROUTES.notices, "GET, HEAD"],
  [API_ROUTES.subscribers, "GET, HEAD"],
  [API_ROUTES.stats, "GET, HEAD"],
  [API_ROUTES.notifications, "GET, HEAD, POST"],
  [API_ROUTES.overview, "GET, HEAD"],
  [API_ROUTES.sites, "GET, HEAD, POST"],
  [API_ROUTES.audience, "GET, HEAD"],
  [API_ROUTES.webhooks, "GET, HEAD, POST"],
  [API_ROUTES.feeds, "GET, HEAD, POST"],
  [API_ROUTES.sessionPassword, "PUT"],
  [API_ROUTES.audit, "GET, HEAD"],
  [API_ROUTES.auditCsv, "GET, HEAD"],
  [API_ROUTES.privacy, "GET, HEAD"],
  [API_ROUTES.subscribersImport, "POST"],
];

// The routes registered do not depend on the database: SQLite only.
describe("the methods each API path answers, read from its routes", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("answers 405 with the same Allow header the hand-kept table gave", async () => {
    for (const [path, allow] of HAND_KEPT) {
      const res = await fetch(server.url + path, { method: "PATCH", headers: { origin: server.url } });
      expect({ path, status: res.status, allow: res.headers.get("allow") }).toEqual({ path, status: 405, allow });
    }
  });

  it("covers the fixed API paths the table forgot (templates, segments), not paths with parameters", async () => {
    const templates = await fetch(`${server.url}${API_ROUTES.templates}`, { method: "PATCH", headers: { origin: server.url } });
    expect(templates.status).toBe(405);
    expect(templates.headers.get("allow")).toBe("GET, HEAD, POST");
    const byId = await fetch(`${server.url}${API_ROUTES.channels}/1`, { method: "PUT", headers: { origin: server.url } });
    expect(byId.status).toBe(404);
  });
});
