import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ADMIN, ApiClient, errorOf, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";

const SETUP = "/api/v1/setup";

for (const dialect of DIALECTS) {
  describe(`first-admin set-up on ${dialect}`, () => {
    let server: OperatorServer;

    beforeEach(async () => {
      server = await startOperatorServer({ dialect });
    });
    afterEach(async () => {
      await server.close();
    });

    it("is needed while no user exists, creates a signed-in admin, and is then refused", async () => {
      const client = new ApiClient(server);
      expect((await client.get(SETUP)).body).toEqual({ needed: true });
      const res = await client.post(SETUP, { ...ADMIN, email: " ANA@Exemplo.com.br" });
      expect(res.status).toBe(201);
      expect(res.body.user).toMatchObject({ name: ADMIN.name, email: ADMIN.email, role: "admin" });
      expect((await client.get("/api/v1/session")).body.user.id).toBe(res.body.user.id);
      expect((await client.get(SETUP)).body).toEqual({ needed: false });
      const again = await new ApiClient(server).post(SETUP, { ...ADMIN, email: "outra@exemplo.com.br" });
      expect(again).toMatchObject({ status: 409, body: errorOf("setup_already_done") });
    });

    it("makes exactly one admin when two set-ups arrive at once", async () => {
      const results = await Promise.all(
        ["a", "b", "c", "d"].map((n) => new ApiClient(server).post(SETUP, { ...ADMIN, email: `${n}@exemplo.com.br` })),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
      const users = await server.database.db.selectFrom("users").select(["email", "role"]).execute();
      expect(users).toHaveLength(1);
      expect(users[0]!.role).toBe("admin");
    });

    it("validates like user creation and stores nothing on a bad request", async () => {
      const client = new ApiClient(server);
      expect(await client.post(SETUP, { ...ADMIN, password: "curta" })).toMatchObject({ status: 400, body: errorOf("password_too_short", "password") });
      expect(await client.post(SETUP, { ...ADMIN, password: "iloveyou1" })).toMatchObject({ status: 400, body: errorOf("password_too_common", "password") });
      expect(await client.post(SETUP, { ...ADMIN, email: "sem-arroba" })).toMatchObject({ status: 400, body: errorOf("email_invalid", "email") });
      expect(await client.post(SETUP, { ...ADMIN, origin: "x" }, { origin: "https://evil.example" })).toMatchObject({ status: 403, body: errorOf("csrf_rejected") });
      expect((await client.get(SETUP)).body).toEqual({ needed: true });
    });
  });
}
