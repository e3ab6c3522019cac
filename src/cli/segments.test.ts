import { beforeAll, describe, expect, it } from "vitest";
import { addToken } from "../../test/support/operators.js";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { runCli } from "./main.js";
import { captureIo, clearExitCodeAroundEachTest } from "../../test/support/cli.js";

describe("sino segments and sino send --segment against a real server", () => {
  const setup = usePublishingServer();
  let adminToken: string;
  beforeAll(async () => {
    adminToken = (await addToken(setup.admin, "admin", "cli admin")).secret;
  });
  clearExitCodeAroundEachTest();

  it("saves a segment with an admin token, lists it, and refuses a publish token's save in pt-BR (exit 1)", async () => {
    const io = captureIo({ SINO_TOKEN: adminToken });
    await runCli(["segments", "create", "--server", setup.server.url, "--name", "Clientes VIP", "tem vip"], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode).toBe(0);
    expect(io.out.join("")).toMatch(/^Segmento \d+ salvo: Clientes VIP \(nenhuma inscrição\)\.\n$/);

    const list = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["segments", "list", "--server", setup.server.url], list);
    expect(process.exitCode).toBe(0);
    expect(list.out.join("")).toMatch(/^\d+\tClientes VIP\tnenhuma inscrição\ttem vip\n$/);

    const refused = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["segments", "create", "--server", setup.server.url, "--name", "Outro", "tem vip"], refused);
    expect(process.exitCode).toBe(1);
    expect(refused.err.join("")).toMatch(/^O servidor recusou o pedido: .+ \(forbidden\)\n$/);
  });

  it("counts an expression's subscriptions and people now, and shows a parse error's position in pt-BR (exit 1)", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["segments", "count", "--server", setup.server.url, "tem vip e canal = inexistente"], io);
    expect(io.out.join("")).toBe("Nenhuma inscrição: tem vip e canal = inexistente\n");
    expect(io.err.join("")).toBe("Aviso: o canal inexistente não existe (a condição dele é falsa).\n");
    expect(process.exitCode).toBe(0);

    const bad = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["segments", "count", "--server", setup.server.url, "plano = = premium"], bad);
    expect(process.exitCode).toBe(1);
    expect(bad.err.join("")).toMatch(/^O servidor recusou o pedido: .*posição 9.* \(segment_syntax\)\n$/);
  });

  it("sends to a saved segment by name or id, and to an expression, and refuses two audiences (exit 2)", async () => {
    const saved = (await setup.admin.post("/api/v1/segments", { name: "Premium", expression: { tag: "plano", op: "eq", value: "premium" } })).body.segment;
    for (const given of ["premium", saved.id as string]) {
      const io = captureIo({ SINO_TOKEN: setup.secret });
      await runCli(["send", "--server", setup.server.url, "--title", "Oferta", "--segment", given], io);
      expect(io.err).toEqual([]);
      expect(process.exitCode).toBe(0);
      const id = /Envio (\d+)/.exec(io.out.join(""))![1];
      expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification.audience).toMatchObject({ type: "segment", segment: saved.id, name: "Premium" });
    }

    const expr = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Só VIP", "--segment-expr", "tem vip"], expr);
    expect(process.exitCode).toBe(0);
    const id = /Envio (\d+)/.exec(expr.out.join(""))![1];
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification.audience).toEqual({ type: "segment", segment: null, name: null, expression: "tem vip" });

    const unknown = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "X", "--segment", "Ninguém"], unknown);
    expect(process.exitCode).toBe(1);
    expect(unknown.err.join("")).toBe('Nenhum segmento salvo se chama "Ninguém". Veja a lista com sino segments list.\n');

    const both = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "X", "--segment", "1", "--channel", "obras"], both);
    expect(process.exitCode).toBe(2);
    expect(both.err.join("")).toContain("Use só um público: --channel, --user, --segment ou --segment-expr.");
  });
});
