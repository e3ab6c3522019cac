import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeBase64Url } from "../../../push/base64url.js";
import { DIALECTS } from "../../../../test/support/db.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";
import { isOnP256 } from "../../../push/key-policy.js";

for (const dialect of DIALECTS) {
  describe(`GET /api/v1/config on ${dialect}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ dialect });
    });
    afterAll(async () => {
      await server.close();
    });

    it("gives the VAPID public key as an unpadded base64url P-256 point, the active channels, the channel limit and the time zone, nothing else", async () => {
      const response = await fetch(`${server.url}/api/v1/config`);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("cache-control")).toBe("no-cache");
      const body = (await response.json()) as Record<string, string>;
      expect(Object.keys(body)).toEqual(["vapidPublicKey", "channels", "maxChannelsPerSubscription", "timeZone", "organisation"]);
      expect(body.organisation).toEqual({ name: null, accentColor: null, logoUrl: null, updatedAt: null });
      expect(body.timeZone).toBe("America/Sao_Paulo");
      expect(body.channels).toEqual([]);
      expect(body.maxChannelsPerSubscription).toBe(20);
      const point = decodeBase64Url(body.vapidPublicKey!);
      expect(point).toBeDefined();
      expect(isOnP256(point!)).toBe(true);
    });
  });
}
