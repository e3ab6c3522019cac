import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DIALECTS } from "../../../../test/support/db.js";
import { ADMIN, ApiClient, addToken, addUser, errorOf, setUpAdmin, startOperatorServer, type OperatorServer } from "../../../../test/support/operators.js";

const PASSWORD = "/api/v1/session/password";
const resetPath = (id: string) => `/api/v1/users/${id}/password-reset`;

for (const dialect of DIALECTS) {
  describe(`passwords on ${dialect}`, () => {
    let server: OperatorServer;
    let admin: ApiClient;

    beforeEach(async () => {
      // Throttled attempts answer at once: the test counts them, it does not wait for them.
      server = await startOperatorServer({ dialect, auth: { sleep: async () => undefined } });
      admin = await setUpAdmin(server);
    });
    afterEach(async () => {
      await server.close();
    });

    const signIn = async (email: string, password: string) => {
      const client = new ApiClient(server);
      const res = await client.post("/api/v1/session", { email, password });
      return { client, res };
    };

    it("changes one's own password with the current one, ending the other sessions but not this one", async () => {
      const other = await signIn(ADMIN.email, ADMIN.password);
      expect(other.res.status).toBe(200);

      const changed = await admin.request("PUT", PASSWORD, { currentPassword: ADMIN.password, newPassword: "uma frase nova e longa" });
      expect(changed).toMatchObject({ status: 200, body: { user: { email: ADMIN.email, mustChangePassword: false } } });
      expect(changed.headers.get("cache-control")).toBe("no-store");

      expect((await admin.get("/api/v1/users")).status).toBe(200);
      expect(await other.client.get("/api/v1/session")).toMatchObject({ status: 401, body: errorOf("unauthenticated") });
      expect((await signIn(ADMIN.email, ADMIN.password)).res).toMatchObject({ status: 401, body: errorOf("invalid_credentials") });
      expect((await signIn(ADMIN.email, "uma frase nova e longa")).res.status).toBe(200);
    });

    it("refuses a wrong current password, the same password again, a short or common one, and unknown fields, changing nothing", async () => {
      const put = (body: unknown) => admin.request("PUT", PASSWORD, body);
      expect(await put({ currentPassword: "não é esta", newPassword: "uma frase nova e longa" })).toMatchObject({
        status: 400,
        body: errorOf("password_incorrect", "currentPassword"),
      });
      expect(await put({ currentPassword: ADMIN.password, newPassword: ADMIN.password })).toMatchObject({ status: 400, body: errorOf("password_unchanged", "newPassword") });
      expect(await put({ currentPassword: ADMIN.password, newPassword: "curta" })).toMatchObject({ status: 400, body: errorOf("password_too_short", "newPassword") });
      expect(await put({ currentPassword: ADMIN.password, newPassword: "Password123" })).toMatchObject({ status: 400, body: errorOf("password_too_common", "newPassword") });
      expect((await put({ currentPassword: ADMIN.password, newPassword: "uma frase nova e longa", role: "admin" })).status).toBe(400);
      expect((await put({ newPassword: "uma frase nova e longa" })).status).toBe(400);
      expect((await signIn(ADMIN.email, ADMIN.password)).res.status).toBe(200);
    });

    it("counts wrong current passwords like failed sign-ins (locks after the limit)", async () => {
      let last = 0;
      for (let i = 0; i < 11; i++) {
        last = (await admin.request("PUT", PASSWORD, { currentPassword: `errada-${i}`, newPassword: "uma frase nova e longa" })).status;
      }
      expect(last).toBe(429);
      expect((await signIn(ADMIN.email, ADMIN.password)).res).toMatchObject({ status: 429, body: errorOf("too_many_attempts") });
    });

    it("needs the session cookie: a token cannot change a password, nor can nobody", async () => {
      const { secret } = await addToken(admin, "admin");
      const script = new ApiClient(server, { bearer: secret, origin: null });
      expect(await script.request("PUT", PASSWORD, { currentPassword: ADMIN.password, newPassword: "uma frase nova e longa" })).toMatchObject({
        status: 401,
        body: errorOf("unauthenticated"),
      });
      expect((await new ApiClient(server).request("PUT", PASSWORD, { currentPassword: "x", newPassword: "uma frase nova e longa" })).status).toBe(401);
    });

    it("lets an admin reset a password: a temporary one, the user's sessions end, and it must be changed before anything else", async () => {
      const bia = await addUser(admin, "publisher", { name: "Bia", email: "bia@exemplo.com.br" });
      expect((await bia.client.get("/api/v1/channels")).status).toBe(200);

      const reset = await admin.post(resetPath(bia.user.id));
      expect(reset).toMatchObject({ status: 200, body: { user: { id: bia.user.id, mustChangePassword: true }, temporaryPassword: expect.stringMatching(/^[a-z2-9]{4}(-[a-z2-9]{4}){3}$/) } });
      expect(reset.headers.get("cache-control")).toBe("no-store");
      const temporary = reset.body.temporaryPassword as string;
      expect(JSON.stringify((await admin.get("/api/v1/users")).body)).not.toContain(temporary);

      // Her open session is gone, and so is her old password.
      expect((await bia.client.get("/api/v1/channels")).status).toBe(401);
      expect((await signIn("bia@exemplo.com.br", bia.password)).res.status).toBe(401);

      // The temporary one signs in, but opens nothing except its own change and sign-out.
      const { client, res } = await signIn("bia@exemplo.com.br", temporary);
      expect(res).toMatchObject({ status: 200, body: { user: { mustChangePassword: true } } });
      expect(await client.get("/api/v1/session")).toMatchObject({ status: 200, body: { user: { mustChangePassword: true } } });
      expect(await client.get("/api/v1/channels")).toMatchObject({ status: 403, body: errorOf("password_change_required") });
      expect(await client.get("/api/v1/stats")).toMatchObject({ status: 403, body: errorOf("password_change_required") });
      expect(await client.post("/api/v1/channels", { name: "Ofertas" })).toMatchObject({ status: 403, body: errorOf("password_change_required") });
      expect(await client.request("PUT", PASSWORD, { currentPassword: temporary, newPassword: temporary })).toMatchObject({
        status: 400,
        body: errorOf("password_unchanged", "newPassword"),
      });
      expect(await client.request("PUT", PASSWORD, { currentPassword: temporary, newPassword: "a frase que só a Bia sabe" })).toMatchObject({
        status: 200,
        body: { user: { mustChangePassword: false } },
      });
      expect((await client.get("/api/v1/channels")).status).toBe(200);
      expect((await client.request("PUT", PASSWORD, { currentPassword: "a frase que só a Bia sabe", newPassword: "outra frase da Bia" })).status).toBe(200);
      expect((await admin.get("/api/v1/users")).body.users.find((u: { id: string }) => u.id === bia.user.id).mustChangePassword).toBe(false);
    });

    it("lets a reset lift a sign-in lock on the account", async () => {
      const caio = await addUser(admin, "publisher", { email: "caio@exemplo.com.br" });
      for (let i = 0; i < 11; i++) await signIn("caio@exemplo.com.br", `errada-${i}`);
      expect((await signIn("caio@exemplo.com.br", caio.password)).res.status).toBe(429);
      const reset = await admin.post(resetPath(caio.user.id));
      expect((await signIn("caio@exemplo.com.br", reset.body.temporaryPassword)).res.status).toBe(200);
    });

    it("answers 405 with Allow to another method on the password route", async () => {
      const res = await admin.post(PASSWORD, {});
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("PUT");
    });

    it("refuses a reset of one's own password, of nobody, and by a publisher", async () => {
      const me = (await admin.get("/api/v1/session")).body.user.id as string;
      expect(await admin.post(resetPath(me))).toMatchObject({ status: 409, body: errorOf("cannot_reset_own_password") });
      expect(await admin.post(resetPath("999999"))).toMatchObject({ status: 404, body: errorOf("user_not_found") });
      const dani = await addUser(admin, "publisher");
      expect(await dani.client.post(resetPath(me))).toMatchObject({ status: 403, body: errorOf("forbidden") });
      expect((await signIn(ADMIN.email, ADMIN.password)).res.status).toBe(200);
    });

    it("creates a user whose first password must be changed, when asked", async () => {
      const created = await admin.post("/api/v1/users", { name: "Edu", email: "edu@exemplo.com.br", password: "senha inicial do edu", role: "publisher", mustChangePassword: true });
      expect(created).toMatchObject({ status: 201, body: { user: { mustChangePassword: true } } });
      const { client } = await signIn("edu@exemplo.com.br", "senha inicial do edu");
      expect((await client.get("/api/v1/channels")).status).toBe(403);
    });
  });
}
