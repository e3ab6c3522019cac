/** `sino send --exempt` / `--reengagement` against a real server: an admin token's, refused to a publish token. */
import { beforeEach, describe, expect, it } from "vitest";
import { addToken } from "../../test/support/operators.js";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { runCli, type CliIo } from "./main.js";

function captureIo(env: Record<string, string> = {}): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { env, out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t) };
}

describe("sino send with the delivery rules", () => {
  const setup = usePublishingServer();
  beforeEach(() => {
    process.exitCode = undefined;
  });

  it("refuses --exempt with a publish token in pt-BR (exit 1) and sends it with an admin token", async () => {
    const refused = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Urgente", "--exempt"], refused);
    expect(process.exitCode).toBe(1);
    expect(refused.err.join("")).toBe(
      "O servidor recusou o envio: Só um administrador pode isentar um envio do limite de frequência, do horário de envio e da regra de assinantes adormecidos. (exempt_admin_only)\n",
    );

    process.exitCode = undefined;
    const { secret } = await addToken(setup.admin, "admin", "plantão");
    const io = captureIo({ SINO_TOKEN: secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Urgente", "--exempt", "--reengagement"], io);
    expect(process.exitCode).toBe(0);
    const [created, rules] = io.out.join("").split("\n");
    const id = /^Envio (\d+) criado/.exec(created!)![1];
    expect(rules).toBe("Envio isento: limite de frequência, horário e adormecidos não se aplicam. Envio de reengajamento: alcança também assinantes adormecidos, uma vez por período.");
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification).toMatchObject({ exempt: true, reengagement: true });
  });
});
