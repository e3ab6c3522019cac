import { spawn } from "node:child_process";
import { Readable } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabaseLocation, openTestDatabase, type TestDatabaseLocation } from "../../test/support/db.js";
import { useTestDatabaseLocation } from "../../test/support/test-database.js";
import { createPasswordHasher } from "../server/auth/password.js";
import { DIALECTS } from "../../test/support/db.js";
import { ptBR } from "../shared/i18n/catalog.js";
import { runCli } from "./main.js";
import { captureIo, clearExitCodeAroundEachTest, databaseEnv } from "../../test/support/cli.js";

const io = (location: TestDatabaseLocation, stdinText: string) => captureIo(databaseEnv(location), { stdin: Readable.from([stdinText]) });

for (const dialect of DIALECTS) {
  describe(`sino admin create on ${dialect}`, () => {
    let location: TestDatabaseLocation;
    useTestDatabaseLocation(dialect, (created) => (location = created));
    clearExitCodeAroundEachTest();

    async function users() {
      const database = openTestDatabase(location);
      try {
        return await database.db.selectFrom("users").selectAll().execute();
      } catch {
        return [];
      } finally {
        await database.destroy();
      }
    }

    it("creates an admin from a piped password, on a fresh database, and exits 0", async () => {
      const cli = io(location, "senha com espaços \nsegunda linha ignorada\n");
      await runCli(["admin", "create", "--email", " Root@Exemplo.com.br", "--name", "Raiz", "--password-stdin"], cli);
      expect(process.exitCode).toBeUndefined();
      expect(cli.out.join("")).toBe("Administrador root@exemplo.com.br criado. Entre no Painel com este e-mail.\n");
      const [row, ...rest] = await users();
      expect(rest).toEqual([]);
      expect(row).toMatchObject({ email: "root@exemplo.com.br", name: "Raiz", role: "admin" });
      expect(await createPasswordHasher().verify(row!.password_hash, "senha com espaços ")).toBe(true);
    });

    it("refuses a password under 8 characters with exit code 2 and creates nothing", async () => {
      const cli = io(location, "curta\n");
      await runCli(["admin", "create", "--email", "a@exemplo.com.br", "--name", "A", "--password-stdin"], cli);
      expect(process.exitCode).toBe(2);
      expect(cli.err.join("")).toBe("Erro: A senha precisa ter pelo menos 8 caracteres.\n");
      expect(await users()).toEqual([]);
    });

    it("refuses one of the most common passwords, whatever its case, with exit code 2 and a pt-BR reason, creating nothing", async () => {
      for (const common of ["password1\n", "Qwertyuiop\n"]) {
        const cli = io(location, common);
        await runCli(["admin", "create", "--email", "a@exemplo.com.br", "--name", "A", "--password-stdin"], cli);
        expect(process.exitCode).toBe(2);
        expect(cli.err.join("")).toBe(`Erro: ${ptBR.errors.password_too_common}\n`);
      }
      expect(await users()).toEqual([]);
    });

    it("refuses a taken email with exit code 1", async () => {
      await runCli(["admin", "create", "--email", "a@exemplo.com.br", "--name", "A", "--password-stdin"], io(location, "doze-teclas-azuis\n"));
      const cli = io(location, "outra-frase-longa\n");
      await runCli(["admin", "create", "--email", "A@exemplo.com.br", "--name", "B", "--password-stdin"], cli);
      expect(process.exitCode).toBe(1);
      expect(cli.err.join("")).toBe("Erro: Já existe um usuário com este e-mail.\n");
      expect(await users()).toHaveLength(1);
    });
  });
}

describe("sino admin create usage", () => {
  beforeEach(() => {
    process.exitCode = undefined;
  });
  afterEach(() => {
    process.exitCode = undefined;
  });

  it("exits 2 with a pt-BR usage line when an option is missing, or the email is not one", async () => {
    const location = { dialect: "sqlite" as const, url: "/nonexistent/never-opened.db", schema: undefined };
    const missing = io(location, "12345678\n");
    await runCli(["admin", "create", "--name", "A"], missing);
    expect(process.exitCode).toBe(2);
    expect(missing.err.join("")).toBe(
      "Erro: falta a opção obrigatória --email <e-mail>.\nUso: sino admin create --email <e-mail> --name <nome> [--password-stdin]\nVeja a ajuda: sino admin create --help\n",
    );
    process.exitCode = undefined;
    const bad = io(location, "12345678\n");
    await runCli(["admin", "create", "--email", "não-é-email", "--name", "A", "--password-stdin"], bad);
    expect(process.exitCode).toBe(2);
    expect(bad.err.join("")).toBe("Erro: Informe um e-mail válido.\n");
  });

  it("works as a real process reading the password from a pipe", async () => {
    const { location, drop } = await createTestDatabaseLocation("sqlite");
    try {
      const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "admin", "create", "--email", "cli@exemplo.com.br", "--name", "CLI", "--password-stdin"], {
        env: { ...process.env, DATABASE_URL: location.url },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.stdin.end("senha-pelo-pipe\n");
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(0);
      expect(out).toContain("cli@exemplo.com.br");
      const database = openTestDatabase(location);
      try {
        const row = await database.db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
        expect(await createPasswordHasher().verify(row.password_hash, "senha-pelo-pipe")).toBe(true);
      } finally {
        await database.destroy();
      }
    } finally {
      await drop();
    }
  });
});
