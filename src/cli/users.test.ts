import { describe, expect, it } from "vitest";
import { captureIo, clearExitCodeAroundEachTest, databaseEnv } from "../../test/support/cli.js";
import { DIALECTS, type TestDatabase } from "../../test/support/db.js";
import { useTestDatabase } from "../../test/support/test-database.js";
import { ApiClient, startOperatorServer } from "../../test/support/operators.js";
import { createPasswordHasher } from "../server/auth/password.js";
import { createRepositories } from "../store/repositories.js";
import { runCli } from "./main.js";

const io = (database: TestDatabase) => captureIo(databaseEnv(database.location));

for (const dialect of DIALECTS) {
  describe(`sino users on ${dialect}`, () => {
    let database: TestDatabase;
    useTestDatabase(dialect, (created) => (database = created));
    clearExitCodeAroundEachTest();

    async function addOperator(email: string, role: "admin" | "publisher", password: string) {
      const result = await createRepositories(database).users.create({ name: `Nome de ${email}`, email, role, passwordHash: await createPasswordHasher().hash(password) }, 1);
      if (result.outcome !== "created") throw new Error("setup");
      return result.user;
    }

    it("lets the server's machine back in when the only admin is locked out: a temporary password, sessions ended, lock lifted", async () => {
      const server = await startOperatorServer({ dialect, database, auth: { sleep: async () => undefined } });
      try {
        await addOperator("ana@exemplo.com.br", "admin", "a senha esquecida da Ana");
        const before = new ApiClient(server);
        expect((await before.post("/api/v1/session", { email: "ana@exemplo.com.br", password: "a senha esquecida da Ana" })).status).toBe(200);
        // Guessing locks the account (429), as the throttle does after 10 failures.
        const guesser = new ApiClient(server);
        for (let i = 0; i < 11; i++) await guesser.post("/api/v1/session", { email: "ana@exemplo.com.br", password: `palpite-${i}` });
        expect((await guesser.post("/api/v1/session", { email: "ana@exemplo.com.br", password: "a senha esquecida da Ana" })).status).toBe(429);

        const cli = io(database);
        await runCli(["users", "reset-password", " Ana@Exemplo.com.br "], cli);
        expect(process.exitCode).toBe(0);
        const output = cli.out.join("");
        const temporary = /^Senha temporária de ana@exemplo\.com\.br: ([a-z2-9]{4}(?:-[a-z2-9]{4}){3})\n/.exec(output)?.[1];
        expect(temporary).toBeDefined();
        expect(output).toContain("no próximo, o Painel pede uma nova senha");

        expect((await before.get("/api/v1/session")).status).toBe(401);
        const after = new ApiClient(server);
        expect(await after.post("/api/v1/session", { email: "ana@exemplo.com.br", password: temporary })).toMatchObject({ status: 200, body: { user: { mustChangePassword: true } } });
        expect((await after.get("/api/v1/users")).status).toBe(403);
        expect((await after.request("PUT", "/api/v1/session/password", { currentPassword: temporary, newPassword: "a nova senha da Ana" })).status).toBe(200);
        expect((await after.get("/api/v1/users")).status).toBe(200);
      } finally {
        await server.app.close();
      }
    });

    it("says so with exit code 1 for an unknown e-mail and 2 for something that is not one, changing nothing", async () => {
      const ana = await addOperator("ana@exemplo.com.br", "admin", "a senha da Ana");
      const unknown = io(database);
      await runCli(["users", "reset-password", "bia@exemplo.com.br"], unknown);
      expect(process.exitCode).toBe(1);
      expect(unknown.err.join("")).toBe("Erro: Nenhum operador tem o e-mail bia@exemplo.com.br. Veja a lista com sino users list.\n");
      const invalid = io(database);
      await runCli(["users", "reset-password", "não é e-mail"], invalid);
      expect(process.exitCode).toBe(2);
      expect(invalid.err.join("")).toMatch(/^Erro: .*e-mail/i);
      const row = await createRepositories(database).users.findById(ana.id);
      expect(row).toMatchObject({ mustChangePassword: false, passwordHash: ana.passwordHash });
    });

    it("lists the operators with their role, marking a temporary password", async () => {
      const cli = io(database);
      await runCli(["users", "list"], cli);
      expect(cli.out.join("")).toMatch(/^Nenhum operador cadastrado/);
      await addOperator("ana@exemplo.com.br", "admin", "a senha da Ana");
      await addOperator("bia@exemplo.com.br", "publisher", "a senha da Bia");
      await runCli(["users", "reset-password", "bia@exemplo.com.br"], io(database));
      const listed = io(database);
      await runCli(["users", "list"], listed);
      expect(listed.out.join("")).toBe(
        "ana@exemplo.com.br\tadministrador\tNome de ana@exemplo.com.br\nbia@exemplo.com.br\tpublicador\tNome de bia@exemplo.com.br (senha temporária)\n",
      );
    });
  });
}
