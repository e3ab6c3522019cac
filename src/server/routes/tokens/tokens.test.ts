import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import {
  ApiClient,
  addToken,
  addUser,
  errorOf,
  setUpAdmin,
  startOperatorServer,
  type OperatorServer,
} from "../../../../test/support/operators.js";
import { sha256Hex } from "../../auth/secrets.js";

const TOKENS = "/api/v1/tokens";

for (const dialect of DIALECTS) {
  describe(`API tokens on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;
    let clock: number;

    beforeEach(async () => {
      clock = Date.UTC(2026, 0, 10, 12);
      server = await startOperatorServer({ dialect, now: () => clock });
      admin = await setUpAdmin(server);
    });
    afterEach(async () => {
      await server.close();
    });

    it("creates a token whose secret is shown once and stored only as a SHA-256", async () => {
      const res = await admin.post(TOKENS, { name: " Backup noturno ", scope: "publish" });
      expect(res.status).toBe(201);
      const { token, secret } = res.body;
      expect(secret).toMatch(/^sino_[A-Za-z0-9_-]{43}$/);
      expect(token).toEqual({
        id: expect.any(String),
        name: "Backup noturno",
        scope: "publish",
        prefix: secret.slice(0, 12),
        createdBy: { id: expect.any(String), name: "Ana Admin" },
        createdAt: new Date(clock).toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      });
      const list = await admin.get(TOKENS);
      expect(list.body).toEqual({ tokens: [token] });
      expect(JSON.stringify(list.body)).not.toContain(secret);
      const row = await server.database.db.selectFrom("api_tokens").selectAll().executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(sha256Hex(secret));
      expect(Object.values(row)).not.toContain(secret);
    });

    it("authenticates a script by its bearer token and records its last use at most once a minute", async () => {
      const { token, secret } = await addToken(admin, "admin");
      const script = new ApiClient(server, { bearer: secret, origin: null });
      expect((await script.get(TOKENS)).status).toBe(200);
      const lastUsed = async () => (await admin.get(TOKENS)).body.tokens.find((t: { id: string }) => t.id === token.id).lastUsedAt;
      expect(await lastUsed()).toBe(new Date(clock).toISOString());
      const first = clock;
      clock += 30_000;
      await script.get(TOKENS);
      expect(await lastUsed()).toBe(new Date(first).toISOString());
      clock += 31_000;
      await script.get(TOKENS);
      expect(await lastUsed()).toBe(new Date(clock).toISOString());
    });

    it("revokes a token: it then fails with 401 token_revoked, and stays listed as revoked", async () => {
      const { token, secret } = await addToken(admin, "admin");
      const script = new ApiClient(server, { bearer: secret, origin: null });
      expect((await script.get(TOKENS)).status).toBe(200);
      clock += 5000;
      expect((await admin.delete(`${TOKENS}/${token.id}`)).status).toBe(204);
      expect(await script.get(TOKENS)).toMatchObject({ status: 401, body: errorOf("token_revoked") });
      expect(await script.get("/api/v1/users")).toMatchObject({ status: 401, body: errorOf("token_revoked") });
      const listed = (await admin.get(TOKENS)).body.tokens[0];
      expect(listed.revokedAt).toBe(new Date(clock).toISOString());
      // Revoking again is harmless and keeps the first time.
      clock += 5000;
      expect((await admin.delete(`${TOKENS}/${token.id}`)).status).toBe(204);
      expect((await admin.get(TOKENS)).body.tokens[0].revokedAt).toBe(listed.revokedAt);
      expect(await admin.delete(`${TOKENS}/999999`)).toMatchObject({ status: 404, body: errorOf("token_not_found") });
    });

    it("refuses unknown, malformed and non-bearer credentials with 401", async () => {
      for (const header of ["Bearer sino_" + "x".repeat(43), "Bearer nao-e-um-token", "Basic YWRtaW46YWRtaW4=", "Bearer"]) {
        const res = await new ApiClient(server).get(TOKENS, { authorization: header });
        expect(res).toMatchObject({ status: 401, body: errorOf("token_invalid") });
      }
    });

    it("a bearer token takes precedence over a cookie: a publish token with an admin's cookie is still refused", async () => {
      const { secret } = await addToken(admin, "publish");
      const mixed = new ApiClient(server, { bearer: secret, origin: null });
      mixed.session = admin.session;
      expect(await mixed.get(TOKENS)).toMatchObject({ status: 403, body: errorOf("forbidden") });
    });

    it("a publisher and a publish token can manage no token", async () => {
      const { token } = await addToken(admin, "admin");
      const { client } = await addUser(admin, "publisher");
      const publish = new ApiClient(server, { bearer: (await addToken(admin, "publish")).secret, origin: null });
      for (const who of [client, publish]) {
        expect(await who.get(TOKENS)).toMatchObject({ status: 403, body: errorOf("forbidden") });
        expect(await who.post(TOKENS, { name: "meu", scope: "admin" })).toMatchObject({ status: 403, body: errorOf("forbidden") });
        expect(await who.delete(`${TOKENS}/${token.id}`)).toMatchObject({ status: 403, body: errorOf("forbidden") });
      }
      expect((await admin.get(TOKENS)).body.tokens.every((t: { revokedAt: string | null }) => t.revokedAt === null)).toBe(true);
      expect(await new ApiClient(server).get(TOKENS)).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
    });

    it("keeps a token working after its creator is deleted, still naming them", async () => {
      const other = await addUser(admin, "admin", { name: "Gui" });
      const { token, secret } = await addToken(other.client, "admin");
      expect((await admin.delete(`/api/v1/users/${other.user.id}`)).status).toBe(204);
      expect((await new ApiClient(server, { bearer: secret, origin: null }).get(TOKENS)).status).toBe(200);
      const listed = (await admin.get(TOKENS)).body.tokens.find((t: { id: string }) => t.id === token.id);
      expect(listed.createdBy).toEqual({ id: other.user.id, name: "Gui" });
    });

    it("validates the name and scope", async () => {
      expect(await admin.post(TOKENS, { name: "", scope: "publish" })).toMatchObject({ status: 400, body: errorOf("name_required", "name") });
      expect(await admin.post(TOKENS, { name: "x", scope: "root" })).toMatchObject({ status: 400, body: errorOf("validation_failed", "scope") });
    });
  });
}
