import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import {
  ADMIN,
  ApiClient,
  addToken,
  addUser,
  errorOf,
  setUpAdmin,
  startOperatorServer,
  type OperatorServer,
} from "../../../../test/support/operators.js";

const USERS = "/api/v1/users";
const userPath = (id: string) => `${USERS}/${id}`;

for (const dialect of DIALECTS) {
  describe(`users on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    beforeEach(async () => {
      server = await startOperatorServer({ dialect });
      admin = await setUpAdmin(server);
    });
    afterEach(async () => {
      await server.close();
    });

    it("lets an admin create, list, rename, promote and delete users", async () => {
      const created = await admin.post(USERS, { name: " Bia ", email: "Bia@Exemplo.com.br", password: "uma senha longa", role: "publisher" });
      expect(created.status).toBe(201);
      expect(created.body.user).toEqual({ id: expect.any(String), name: "Bia", email: "bia@exemplo.com.br", role: "publisher", createdAt: expect.any(String), mustChangePassword: false });
      const id = created.body.user.id as string;

      const list = await admin.get(USERS);
      expect(list.status).toBe(200);
      expect(list.body.users.map((u: { email: string }) => u.email)).toEqual([ADMIN.email, "bia@exemplo.com.br"]);
      expect(JSON.stringify(list.body)).not.toMatch(/hash|argon/i);

      const renamed = await admin.patch(userPath(id), { name: "Beatriz", role: "admin" });
      expect(renamed).toMatchObject({ status: 200, body: { user: { id, name: "Beatriz", role: "admin" } } });

      expect((await admin.delete(userPath(id))).status).toBe(204);
      expect((await admin.get(USERS)).body.users).toHaveLength(1);
      expect(await admin.delete(userPath(id))).toMatchObject({ status: 404, body: errorOf("user_not_found") });
    });

    it("stores the password as an argon2id hash, never in clear", async () => {
      await admin.post(USERS, { name: "Caio", email: "caio@exemplo.com.br", password: "segredo-do-caio", role: "publisher" });
      const row = await server.database.db.selectFrom("users").select("password_hash").where("email", "=", "caio@exemplo.com.br").executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row.password_hash).not.toContain("segredo-do-caio");
    });

    it("refuses a taken email (any case), a short or overlong password, a bad email and an empty name", async () => {
      const body = { name: "Dani", email: "dani@exemplo.com.br", password: "doze-teclas-azuis", role: "publisher" };
      expect((await admin.post(USERS, body)).status).toBe(201);
      expect(await admin.post(USERS, { ...body, email: " DANI@exemplo.com.br" })).toMatchObject({ status: 409, body: errorOf("email_taken", "email") });
      expect(await admin.post(USERS, { ...body, email: "e@x.com", password: "1234567" })).toMatchObject({ status: 400, body: errorOf("password_too_short", "password") });
      expect(await admin.post(USERS, { ...body, email: "e@x.com", password: "x".repeat(257) })).toMatchObject({ status: 400, body: errorOf("password_too_long", "password") });
      expect(await admin.post(USERS, { ...body, email: "não é email" })).toMatchObject({ status: 400, body: errorOf("email_invalid", "email") });
      expect(await admin.post(USERS, { ...body, email: "e@x.com", name: "   " })).toMatchObject({ status: 400, body: errorOf("name_required", "name") });
      expect(await admin.post(USERS, { ...body, email: "e@x.com", role: "root" })).toMatchObject({ status: 400, body: errorOf("validation_failed", "role") });
      // ASVS 6.2.4: one of the most common passwords is refused, whatever its case.
      expect(await admin.post(USERS, { ...body, email: "e@x.com", password: "Password123" })).toMatchObject({ status: 400, body: errorOf("password_too_common", "password") });
      expect(await admin.post(USERS, { ...body, email: "e@x.com", password: "senha123" })).toMatchObject({ status: 400, body: errorOf("password_too_common", "password") });
      expect((await admin.get(USERS)).body.users.map((u: { email: string }) => u.email)).not.toContain("e@x.com");
      // No composition rules: eight spaces-and-letters are fine.
      expect((await admin.post(USERS, { ...body, email: "f@x.com", password: "a a a a " })).status).toBe(201);
    });

    it("refuses to delete yourself and to remove or demote the last admin", async () => {
      const me = (await admin.get("/api/v1/session")).body.user.id as string;
      expect(await admin.delete(userPath(me))).toMatchObject({ status: 409, body: errorOf("cannot_delete_self") });
      expect(await admin.patch(userPath(me), { role: "publisher" })).toMatchObject({ status: 409, body: errorOf("last_admin", "role") });
      // An admin token is not "yourself", but the last-admin rule still holds.
      const { secret } = await addToken(admin, "admin");
      const script = new ApiClient(server, { bearer: secret, origin: null });
      expect(await script.delete(userPath(me))).toMatchObject({ status: 409, body: errorOf("last_admin") });
      // With a second admin, the first may step down.
      await addUser(admin, "admin");
      expect((await admin.patch(userPath(me), { role: "publisher" })).body.user.role).toBe("publisher");
    });

    it("never leaves zero admins when two admins delete each other at once", async () => {
      const other = await addUser(admin, "admin");
      const me = (await admin.get("/api/v1/session")).body.user.id as string;
      const results = await Promise.all([admin.delete(userPath(other.user.id)), other.client.delete(userPath(me))]);
      const statuses = results.map((r) => r.status).sort();
      // The loser is refused either by the last-admin rule (409) or, when the winner finished
      // first, because its own account (and session) is already gone (401).
      expect(statuses[0]).toBe(204);
      expect([401, 409]).toContain(statuses[1]);
      const admins = await server.database.db.selectFrom("users").select("id").where("role", "=", "admin").execute();
      expect(admins).toHaveLength(1);
    });

    it("ends a deleted user's sessions", async () => {
      const { user, client } = await addUser(admin, "publisher");
      expect((await client.get("/api/v1/session")).status).toBe(200);
      expect((await admin.delete(userPath(user.id))).status).toBe(204);
      expect(await client.get("/api/v1/session")).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      const rows = await server.database.db.selectFrom("sessions").select("id_hash").where("user_id", "=", Number(user.id)).execute();
      expect(rows).toEqual([]);
    });

    it("ends the user's other sessions when their password changes, and the new password works", async () => {
      const { user, client, password } = await addUser(admin, "publisher");
      // A common password is refused on a change too, and the old one keeps working meanwhile.
      expect(await admin.patch(userPath(user.id), { password: "qwertyuiop" })).toMatchObject({ status: 400, body: errorOf("password_too_common", "password") });
      expect((await client.get("/api/v1/session")).status).toBe(200);
      expect((await admin.patch(userPath(user.id), { password: "nova-senha-da-pessoa" })).status).toBe(200);
      expect((await client.get("/api/v1/session")).status).toBe(401);
      const again = new ApiClient(server);
      expect((await again.post("/api/v1/session", { email: user.email, password })).status).toBe(401);
      // The admin knows the password they set: its owner must replace it before anything else.
      expect(await again.post("/api/v1/session", { email: user.email, password: "nova-senha-da-pessoa" })).toMatchObject({ status: 200, body: { user: { mustChangePassword: true } } });
      expect(await again.get("/api/v1/channels")).toMatchObject({ status: 403, body: errorOf("password_change_required") });
      // An admin changing their own password keeps the session they are using, and need not change it again.
      const me = (await admin.get("/api/v1/session")).body.user.id as string;
      expect(await admin.patch(userPath(me), { password: "outra-senha-longa" })).toMatchObject({ status: 200, body: { user: { mustChangePassword: false } } });
      expect((await admin.get("/api/v1/session")).status).toBe(200);
    });

    it("a publisher can manage no user: 403 forbidden on every route, and nothing changes", async () => {
      const { client } = await addUser(admin, "publisher");
      const me = (await admin.get("/api/v1/session")).body.user.id as string;
      const before = await admin.get(USERS);
      expect(await client.get(USERS)).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect(await client.post(USERS, { name: "X", email: "x@x.com", password: "doze-teclas-azuis", role: "admin" })).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect(await client.patch(userPath(me), { role: "publisher" })).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect(await client.delete(userPath(me))).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect((await admin.get(USERS)).body).toEqual(before.body);
    });

    it("a publish token can manage no user; an admin token acts as an admin", async () => {
      const publish = new ApiClient(server, { bearer: (await addToken(admin, "publish")).secret, origin: null });
      const adminToken = new ApiClient(server, { bearer: (await addToken(admin, "admin")).secret, origin: null });
      expect(await publish.get(USERS)).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect(await publish.post(USERS, { name: "X", email: "x@x.com", password: "doze-teclas-azuis", role: "admin" })).toMatchObject({ status: 403 });
      expect((await adminToken.get(USERS)).status).toBe(200);
      expect((await adminToken.post(USERS, { name: "Eva", email: "eva@x.com", password: "doze-teclas-azuis", role: "publisher" })).status).toBe(201);
    });

    it("answers 401 to anyone not signed in", async () => {
      const anonymous = new ApiClient(server);
      expect(await anonymous.get(USERS)).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      expect(await anonymous.post(USERS, {})).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      expect(await anonymous.delete(userPath("1"))).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
    });

    describe("CSRF", () => {
      const body = () => ({ name: "Fábio", email: `fabio${Math.random()}@x.com`, password: "doze-teclas-azuis", role: "publisher" });

      it("refuses a cookie-carrying change from a foreign Origin, and stores nothing", async () => {
        const before = (await admin.get(USERS)).body.users.length;
        const res = await admin.post(USERS, body(), { origin: "https://evil.example" });
        expect(res).toMatchObject({ status: 403, body: errorOf("csrf_rejected") });
        expect((await admin.get(USERS)).body.users.length).toBe(before);
      });

      it("refuses one with no Origin and no Referer, and one whose Origin is null", async () => {
        expect((await admin.post(USERS, body(), { origin: null })).body).toEqual(errorOf("csrf_rejected"));
        expect((await admin.post(USERS, body(), { origin: "null" })).body).toEqual(errorOf("csrf_rejected"));
        expect((await admin.delete("/api/v1/session", undefined, { origin: "https://evil.example" })).status).toBe(403);
      });

      it("accepts the server's own origin: the request's Host, SINO_PUBLIC_URL, or a same-origin Referer", async () => {
        expect((await admin.post(USERS, body())).status).toBe(201);
        expect((await admin.post(USERS, body(), { origin: "https://sino.example.com" })).status).toBe(201);
        expect((await admin.post(USERS, body(), { origin: null, referer: `${server.url}/painel/usuarios` })).status).toBe(201);
        expect((await admin.post(USERS, body(), { origin: null, referer: "https://evil.example/painel" })).status).toBe(403);
      });

      it("does not apply to bearer-token requests, which carry no ambient authority", async () => {
        const { secret } = await addToken(admin, "admin");
        const script = new ApiClient(server, { bearer: secret, origin: "https://ci.example" });
        script.session = admin.session;
        expect((await script.post(USERS, body())).status).toBe(201);
      });

      it("leaves the public subscription route to its own origin check: scripts pass, unregistered sites do not", async () => {
        const body = { endpoint: "https://fcm.googleapis.com/fcm/send/x", keys: { p256dh: "x", auth: "y" } };
        // A script (no Origin) reaches validation (the keys are nonsense), not the CSRF check.
        const script = new ApiClient(server, { origin: null });
        expect((await script.post("/api/v1/subscriptions", body)).body.error.code).toBe("p256dh_invalid");
        // A page on a site nobody registered (Painel → Sites) is refused before anything else.
        const bell = new ApiClient(server, { origin: "https://outro-site.example" });
        expect((await bell.post("/api/v1/subscriptions", body)).body.error.code).toBe("origin_not_allowed");
      });
    });
  });
}
