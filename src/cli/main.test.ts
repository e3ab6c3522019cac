import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseVapidKeys } from "../push/vapid-keys.js";
import { MIGRATIONS } from "../store/migrations/index.js";
import { runCli } from "./main.js";
import { captureIo } from "../../test/support/cli.js";

describe("sino command", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "sino-cli-"));
    process.exitCode = undefined;
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    process.exitCode = undefined;
  });

  it("vapid generate prints a valid key pair as environment lines", async () => {
    const io = captureIo();
    await runCli(["vapid", "generate"], io);
    const text = io.out.join("");
    const match = /^SINO_VAPID_PUBLIC_KEY=(\S+)\nSINO_VAPID_PRIVATE_KEY=(\S+)\n$/.exec(text);
    expect(match).not.toBeNull();
    expect(() => parseVapidKeys({ publicKey: match![1]!, privateKey: match![2]! })).not.toThrow();
  });

  it("migrate applies the migrations once, then reports the database is up to date", async () => {
    const env = { SINO_DATA_DIR: dir };
    const first = captureIo(env);
    await runCli(["migrate"], first);
    expect(first.out.join("")).toBe(`${MIGRATIONS.length} migrações aplicadas.\n`);
    const second = captureIo(env);
    await runCli(["migrate"], second);
    expect(second.out.join("")).toBe("O banco de dados já está atualizado.\n");
  });

  it("refuses an invalid configuration with a pt-BR message and exit code 1", async () => {
    const io = captureIo({ SINO_DATA_DIR: dir, SINO_PORT: "porta" });
    await runCli(["start"], io);
    expect(io.err.join("")).toBe("Erro: Configuração inválida:\n- SINO_PORT precisa ser um número de porta entre 0 e 65535.\n");
    expect(process.exitCode).toBe(1);
  });
});
