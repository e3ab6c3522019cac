import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, addToken, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../test/support/operators.js";
import { createPublishRateLimit } from "./publish-rate-limit.js";

/** A test-only route standing in for the publishing routes (POST /notifications, /p/<channel>). */
const PUBLISH = "/test-only/publish";

describe("the per-token publish rate limit", () => {
  let server: OperatorServer;
  let admin: ApiClient;

  beforeAll(async () => {
    server = await startOperatorServer({
      dialect: "sqlite",
      beforeListen(app) {
        // The chain a real publishing route will use: authenticate, then limit.
        const limit = createPublishRateLimit(app, 3);
        app.post(PUBLISH, { onRequest: app.authenticator.requireUser, preHandler: limit }, async () => ({ ok: true }));
      },
    });
    admin = await setUpAdmin(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it("allows the configured requests per minute per token, then answers 429 with Retry-After; other tokens are unaffected", async () => {
    const a = new ApiClient(server, { bearer: (await addToken(admin, "publish", "a")).secret, origin: null });
    const b = new ApiClient(server, { bearer: (await addToken(admin, "publish", "b")).secret, origin: null });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await a.post(PUBLISH, {})).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await a.post(PUBLISH, {});
    expect(limited).toMatchObject({ status: 429, body: errorOf("rate_limited") });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await b.post(PUBLISH, {})).status).toBe(200);
  });

  it("authenticates before counting: a request without credentials is refused with 401 and spends nothing", async () => {
    const anonymous = new ApiClient(server);
    expect(await anonymous.post(PUBLISH, {})).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
  });
});
