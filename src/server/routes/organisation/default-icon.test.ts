/**
 * The organisation's logo is the icon of every send that sets none, on SQLite and PostgreSQL: in
 * the send as the API shows it and in the payload each browser decrypts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { setUpAdmin, type ApiClient } from "../../../../test/support/operators.js";
import { solidPng } from "../../../../test/support/png.js";
import { startTestServer, type TestServer } from "../../../../test/support/server.js";

for (const dialect of DIALECTS) {
  describe(`the default notification icon on ${dialect}`, () => {
    let server: TestServer;
    let admin: ApiClient;
    beforeAll(async () => {
      server = await startTestServer({ dialect });
      admin = await setUpAdmin({ url: server.url, origin: "http://localhost:8080" });
    });
    afterAll(async () => {
      await server?.close();
    });

    async function payloadOf(id: string): Promise<{ icon?: string }> {
      const row = await server.database.db.selectFrom("notifications").select("payload").where("id", "=", Number(id)).executeTakeFirstOrThrow();
      return JSON.parse(String(row.payload)) as { icon?: string };
    }

    it("is none while no logo is set", async () => {
      const sent = await admin.post("/api/v1/notifications", { title: "Sem logotipo" });
      expect(sent.status).toBe(201);
      expect(sent.body.notification.icon ?? null).toBeNull();
      expect((await payloadOf(sent.body.notification.id)).icon).toBeUndefined();
    });

    it("is the organisation's logo once set, and a send's own icon still wins", async () => {
      const saved = await admin.put("/api/v1/organisation", { logo: { data: solidPng(96, 96, [10, 60, 120]).toString("base64") } });
      const logoUrl = saved.body.organisation.logoUrl as string;
      expect(logoUrl).toMatch(/^http:\/\/localhost:8080\/api\/v1\/organisation\/logo\?v=\d+$/);

      const plain = await admin.post("/api/v1/notifications", { title: "Com o logotipo" });
      expect(plain.body.notification.icon).toBe(logoUrl);
      expect((await payloadOf(plain.body.notification.id)).icon).toBe(logoUrl);

      const own = await admin.post("/api/v1/notifications", { title: "Com ícone próprio", icon: "https://cdn.exemplo.com.br/obras.png" });
      expect(own.body.notification.icon).toBe("https://cdn.exemplo.com.br/obras.png");
      expect((await payloadOf(own.body.notification.id)).icon).toBe("https://cdn.exemplo.com.br/obras.png");
    });
  });
}
