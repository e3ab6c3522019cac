import { beforeAll, describe, expect, it } from "vitest";
import { addToken } from "../../test/support/operators.js";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { runCli } from "./main.js";
import { captureIo, clearExitCodeAroundEachTest } from "../../test/support/cli.js";

describe("sino audit against a real server", () => {
  const setup = usePublishingServer();
  let adminToken: { token: { id: string }; secret: string };
  beforeAll(async () => {
    adminToken = await addToken(setup.admin, "admin", "auditor");
  });
  clearExitCodeAroundEachTest();

  it("prints the newest entries, filtered, one line each, and refuses a publish token in pt-BR (exit 1)", async () => {
    const io = captureIo({ SINO_TOKEN: adminToken.secret });
    await runCli(["audit", "--server", setup.server.url, "--action", "token.create"], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode).toBe(0);
    const lines = io.out.join("").trimEnd().split("\n");
    expect(lines).toHaveLength(2); // the publish token of the set-up, then the auditor's
    expect(lines[0]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[^\\t]+Z\\tuser:\\d+ \\([^)]+\\)\\ttoken\\.create\\t${adminToken.token.id}\\t201\\t127\\.0\\.0\\.1$`));
    expect(io.out.join("")).not.toContain(adminToken.secret);

    const limited = captureIo({ SINO_TOKEN: adminToken.secret });
    await runCli(["audit", "--server", setup.server.url, "--limit", "1"], limited);
    expect(limited.out).toHaveLength(1);
    expect(limited.err.join("")).toMatch(/^Mostrando as 1 mais recentes de \d+;/);

    const refused = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["audit", "--server", setup.server.url], refused);
    expect(process.exitCode).toBe(1);
    expect(refused.err.join("")).toMatch(/^O servidor recusou o pedido: .+ \(forbidden\)\n$/);

    const bad = captureIo({ SINO_TOKEN: adminToken.secret });
    await runCli(["audit", "--server", setup.server.url, "--limit", "500"], bad);
    expect(process.exitCode).toBe(2);
    expect(bad.err.join("")).toBe("--limit deve ser um número inteiro de 1 a 200.\n");
  });
});
