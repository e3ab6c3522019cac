import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiClient, limitErrorOf, setUpAdmin } from "../../test/support/operators.js";
import { startTestServer, type TestServer } from "../../test/support/server.js";
import { aBrowserSubscription } from "../../test/support/subscriptions.js";

// Issue 23 item 10: "some errors do not name the limit". A refusal for a size, a length or a
// count says what the bound is, whether the field has its own code or only a schema bound.
describe("refusals over a limit name the limit", () => {
  let server: TestServer;
  let admin: ApiClient;
  beforeAll(async () => {
    server = await startTestServer({ env: { SINO_WORKER_EMBEDDED: "false" } });
    admin = await setUpAdmin({ url: server.url, origin: server.url });
  });
  afterAll(async () => {
    await server.close();
  });

  it("names a field's length bound that has no code of its own (validation_failed)", async () => {
    const res = await admin.post("/api/v1/subscriptions", { ...aBrowserSubscription(), timeZone: "x".repeat(65) });
    expect(res).toMatchObject({ status: 400, body: limitErrorOf("validation_failed", "timeZone", "stringMax", 64) });
    expect(res.body.error.message).toContain("no máximo 64 caracteres");
  });

  it("names a list's count bound", async () => {
    const res = await admin.post("/api/v1/notifications", { title: "Oi", audience: { type: "all", sites: Array.from({ length: 101 }, (_, i) => String(i + 1)) } });
    expect(res).toMatchObject({ status: 400, body: limitErrorOf("validation_failed", "audience.sites", "arrayMax", 100) });
  });

  it("names the route's body size limit on a 413", async () => {
    // Channels take the application's default limit, 64 KiB.
    const res = await admin.post("/api/v1/channels", { slug: "grande", name: "x".repeat(70_000) });
    expect(res).toMatchObject({ status: 413, body: limitErrorOf("payload_too_large", undefined, "bodyBytes", 64 * 1024) });
    expect(res.body.error.message).toContain("65.536 bytes");
  });
});
