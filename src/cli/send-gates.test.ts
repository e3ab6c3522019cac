/** `sino send --exempt` / `--reengagement` against a real server: an admin token's, refused to a publish token. */
import { describe, expect, it } from "vitest";
import { addToken } from "../../test/support/operators.js";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { runCli } from "./main.js";
import { captureIo, clearExitCodeAroundEachTest } from "../../test/support/cli.js";

describe("sino send with the delivery rules", () => {
  const setup = usePublishingServer();
  clearExitCodeAroundEachTest();

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
