import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient} from "../../test/support/operators.js";
import { errorOf, setUpAdmin } from "../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { aBrowserSubscription } from "../../test/support/subscriptions.js";

type Table = "notifications" | "channels" | "users" | "api_tokens" | "subscriptions" | "sites" | "webhooks" | "segments";

// Issue 23 item 10: `{"foo":1}` was taken silently (201). A JSON body with a field its route
// does not know is now refused, the field named, before anything is stored.
describe("JSON bodies with a field the route does not take", () => {
  let server: TestServer;
  let admin: ApiClient;
  const count = async (table: Table) =>
    Number((await server.database.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    admin = await setUpAdmin({ url: server.url, origin: server.url });
  });
  afterAll(async () => {
    await server.close();
  });

  const cases: [string, string, string, () => unknown, string, Table | null][] = [
    ["a send", "POST", "/api/v1/notifications", () => ({ title: "Manutenção", foo: 1 }), "foo", "notifications"],
    ["a send's audience", "POST", "/api/v1/notifications", () => ({ title: "Manutenção", audience: { type: "all", canais: ["x"] } }), "audience.canais", "notifications"],
    ["a channel", "POST", "/api/v1/channels", () => ({ slug: "promocoes", name: "Promoções", foo: 1 }), "foo", "channels"],
    ["an operator", "POST", "/api/v1/users", () => ({ name: "Bia", email: "bia@exemplo.com.br", password: "cavalo-correto-bateria-2", role: "publisher", admin: true }), "admin", "users"],
    ["a token", "POST", "/api/v1/tokens", () => ({ name: "ci", scope: "publish", expiresAt: "2030-01-01" }), "expiresAt", "api_tokens"],
    ["a site", "POST", "/api/v1/sites", () => ({ origin: "https://loja.exemplo.com.br", name: "Loja" }), "name", "sites"],
    ["a webhook", "POST", "/api/v1/webhooks", () => ({ url: "https://hooks.exemplo.com.br/sino", events: ["notification.completed"], secret: "x" }), "secret", "webhooks"],
    ["a saved segment", "POST", "/api/v1/segments", () => ({ name: "Premium", expression: "plano = premium", color: "red" }), "color", "segments"],
    ["a registration (public)", "POST", "/api/v1/subscriptions", () => ({ ...aBrowserSubscription(), foo: 1 }), "foo", "subscriptions"],
    [
      "a registration's keys (public)",
      "POST",
      "/api/v1/subscriptions",
      () => {
        const subscription = aBrowserSubscription();
        return { ...subscription, keys: { ...subscription.keys, extra: "x" } };
      },
      "keys.extra",
      "subscriptions",
    ],
    ["a sign-in", "POST", "/api/v1/session", () => ({ email: "ana@exemplo.com.br", password: "x", remember: true }), "remember", null],
    ["a segment count", "POST", "/api/v1/segments/count", () => ({ expression: "plano = premium", foo: 1 }), "foo", null],
    ["a channel choice (public)", "PUT", "/api/v1/subscriptions/channels", () => ({ endpoint: "https://fcm.googleapis.com/fcm/send/x", auth: "x", channels: [], foo: 1 }), "foo", null],
    ["an event (public)", "POST", "/api/v1/events", () => ({ notificationId: "1", type: "shown", endpoint: "https://fcm.googleapis.com/fcm/send/x", auth: "x", at: 1 }), "at", null],
  ];

  for (const [what, method, path, body, field, table] of cases) {
    it(`refuses ${what} with an unknown field (400 unknown_field, field "${field}"), storing nothing`, async () => {
      const before = table === null ? 0 : await count(table);
      const res = await admin.request(method, path, body());
      expect(res).toMatchObject({ status: 400, body: errorOf("unknown_field", field) });
      if (table !== null) expect(await count(table)).toBe(before);
    });
  }

  it("still takes the same bodies without the unknown field", async () => {
    const res = await admin.post("/api/v1/channels", { slug: "promocoes", name: "Promoções" });
    expect(res.status).toBe(201);
    const notification = await admin.post("/api/v1/notifications", { title: "Manutenção", audience: { type: "all" } });
    expect(notification.status).toBe(201);
  });

  it("names the unknown field before a missing one it was probably meant to be", async () => {
    const res = await admin.post("/api/v1/notifications", { titel: "Manutenção" });
    expect(res).toMatchObject({ status: 400, body: errorOf("unknown_field", "titel") });
  });
});
