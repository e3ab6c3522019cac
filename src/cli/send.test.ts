import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { addToken } from "../../test/support/operators.js";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { runCli } from "./main.js";
import { parseScheduleTime } from "./schedule-time.js";
import { captureIo, clearExitCodeAroundEachTest } from "../../test/support/cli.js";

describe("--agendar times", () => {
  it("reads a wall-clock time in the configured zone, and ISO instants with their offset", () => {
    expect(parseScheduleTime("2026-11-21 18:00", "America/Sao_Paulo")).toBe(Date.parse("2026-11-21T21:00:00Z"));
    expect(parseScheduleTime("2026-11-21T18:00", "America/Sao_Paulo")).toBe(Date.parse("2026-11-21T21:00:00Z"));
    expect(parseScheduleTime("2026-11-21T18:00:00+01:00", "America/Sao_Paulo")).toBe(Date.parse("2026-11-21T17:00:00Z"));
    expect(parseScheduleTime("2026-02-30 10:00", "America/Sao_Paulo")).toBeNull();
    expect(parseScheduleTime("amanhã", "America/Sao_Paulo")).toBeNull();
  });
});

describe("sino send against a real server", () => {
  const setup = usePublishingServer();
  clearExitCodeAroundEachTest();

  it("creates a send with a token from SINO_TOKEN and prints its id and status (exit 0)", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Backup concluído", "--body", "Tudo certo", "--link", "/avisos"], io);
    expect(process.exitCode).toBe(0);
    // Nobody subscribes on this server: the notification's own state says so.
    const match = /^Envio (\d+) criado: sem destinatários; nenhum assinante para receber\.\n$/.exec(io.out.join(""));
    expect(match).not.toBeNull();
    const read = await setup.admin.get(`/api/v1/notifications/${match![1]}`);
    expect(read.body.notification).toMatchObject({ title: "Backup concluído", body: "Tudo certo", url: "/avisos" });
  });

  it("keeps a send off Avisos with --no-notice, and says so", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Só a equipe", "--no-notice"], io);
    expect(process.exitCode).toBe(0);
    const [created, notice] = io.out.join("").split("\n");
    const id = /^Envio (\d+) criado/.exec(created!)![1];
    expect(notice).toBe("Não publicado em Avisos (para publicar depois: Painel → Histórico → o envio).");
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification.notice).toBe("hidden");
    expect((await setup.admin.get("/api/v1/notices")).body.notices.map((n: { title: string }) => n.title)).not.toContain("Só a equipe");
  });

  it("narrows a send to one site with --site, and reports an unknown site in pt-BR (exit 1)", async () => {
    const site = (await setup.admin.post("/api/v1/sites", { origin: "https://www.exemplo.com.br" })).body.site;
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Só no site", "--site", site.id], io);
    expect(process.exitCode).toBe(0);
    const id = /Envio (\d+)/.exec(io.out.join(""))![1];
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification.audience).toEqual({ type: "all", sites: [site.id] });

    const refused = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Nenhum", "--site", "999999"], refused);
    expect(process.exitCode).toBe(1);
    expect(refused.err.join("")).toContain("Um dos sites escolhidos para o público não existe.");
  });

  it("schedules with --agendar in São Paulo time", async () => {
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const [year, month, date] = day.split("-");
    const io = captureIo();
    await runCli(["send", "--server", setup.server.url, "--token", setup.secret, "--title", "Mais tarde", "--agendar", `${day} 18:00`], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode).toBe(0);
    expect(io.out.join("")).toMatch(new RegExp(`^Envio \\d+ agendado para ${date}/${month}/${year},? 18:00 \\(America/Sao_Paulo\\)\\.\\n$`));
    const id = /Envio (\d+)/.exec(io.out.join(""))![1];
    const read = await setup.admin.get(`/api/v1/notifications/${id}`);
    expect(read.body.notification).toMatchObject({ status: "scheduled", sendAt: `${day}T21:00:00.000Z` });
  });

  it("exits 1 with the server's pt-BR message when the server refuses", async () => {
    const tooLong = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "x".repeat(81)], tooLong);
    expect(process.exitCode).toBe(1);
    expect(tooLong.err.join("")).toBe("O servidor recusou o envio: O título pode ter no máximo 80 caracteres. (title_too_long)\n");

    const { secret: revoked, token } = await addToken(setup.admin, "publish", "revogado");
    await setup.admin.delete(`/api/v1/tokens/${token.id}`);
    const io = captureIo({ SINO_TOKEN: revoked });
    process.exitCode = undefined;
    await runCli(["send", "--server", setup.server.url, "--title", "Oi"], io);
    expect(process.exitCode).toBe(1);
    expect(io.err.join("")).toBe("O servidor recusou o envio: Este token de API foi revogado. (token_revoked)\n");
  });

  it("sends to people with --user (repeatable) and --category, and lists the ids with no subscription", async () => {
    await setup.server.database.db
      .insertInto("subscriptions")
      .values({ endpoint: "https://push.example.com/cli-ana", p256dh: "k", auth: "a", user_agent: null, created_at: 0, updated_at: 0, last_seen_at: 0, person_id: "ana" })
      .execute();
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Seu pedido saiu", "--user", "ana", "--user", "zé", "--category", "transactional"], io);
    expect(io.err).toEqual([]);
    expect(process.exitCode).toBe(0);
    const [created, missing] = io.out.join("").split("\n");
    expect(created).toMatch(/^Envio \d+ criado: na fila, para 1 assinante\.$/);
    expect(missing).toBe("1 pessoa sem inscrição (não recebe): zé");
    const id = /Envio (\d+)/.exec(created!)![1];
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification).toMatchObject({ category: "transactional", audience: { type: "users", users: 2 } });

    const both = captureIo({ SINO_TOKEN: setup.secret });
    process.exitCode = undefined;
    await runCli(["send", "--server", setup.server.url, "--title", "Oi", "--user", "ana", "--channel", "obras"], both);
    expect(process.exitCode).toBe(2);
    expect(both.err.join("")).toContain("Use --channel ou --user, não os dois.");

    const refused = captureIo({ SINO_TOKEN: setup.secret });
    process.exitCode = undefined;
    await runCli(["send", "--server", setup.server.url, "--title", "Oi", "--category", "transactional"], refused);
    expect(process.exitCode).toBe(1);
    expect(refused.err.join("")).toContain("(transactional_audience)");
    // The sends to everyone below count no subscriber.
    await setup.server.database.db.deleteFrom("subscriptions").where("person_id", "=", "ana").execute();
  });

  it("exits 1 when no server answers", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", "http://127.0.0.1:9", "--title", "Oi"], io);
    expect(process.exitCode).toBe(1);
    expect(io.err.join("")).toMatch(/^Não foi possível falar com o Sino em http:\/\/127\.0\.0\.1:9 \(.+\)\.\n$/);
  });

  it("sends the full notification: two --action buttons, --tag with --renotify, --require-interaction, --silent, --badge, --app-badge and --data", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(
      [
        "send", "--server", setup.server.url, "--title", "Pedido enviado",
        "--action", "Ver pedido=https://loja.example.com/pedidos/42?a=b=c", "--action", "Avisos=/avisos",
        "--tag", "pedido-42", "--renotify", "--require-interaction", "--silent",
        "--badge", "/selo.png", "--app-badge", "3", "--data", '{"tela":"pedido","id":42}',
      ],
      io,
    );
    expect(process.exitCode).toBe(0);
    const id = /Envio (\d+)/.exec(io.out.join(""))![1];
    expect((await setup.admin.get(`/api/v1/notifications/${id}`)).body.notification).toMatchObject({
      actions: [
        { label: "Ver pedido", url: "https://loja.example.com/pedidos/42?a=b=c" },
        { label: "Avisos", url: "/avisos" },
      ],
      collapseKey: "pedido-42",
      renotify: true,
      requireInteraction: true,
      silent: true,
      badge: "/selo.png",
      appBadge: 3,
      data: { tela: "pedido", id: 42 },
    });
  });

  it("says in pt-BR what the server refuses of the new options (exit 1)", async () => {
    const io = captureIo({ SINO_TOKEN: setup.secret });
    await runCli(["send", "--server", setup.server.url, "--title", "Oi", "--app-badge", "muitos"], io);
    expect(process.exitCode).toBe(1);
    expect(io.err.join("")).toBe("O servidor recusou o envio: O número no ícone do app deve ser um inteiro de 0 a 99.999. (app_badge_invalid)\n");
  });

  it("exits 2 for usage errors: no title, no token, a bad --agendar", async () => {
    for (const [args, env, first] of [
      [["send", "--token", setup.secret], {}, "Uso: sino send"],
      [["send", "--title", "Oi"], {}, "Informe um token de API"],
      [["send", "--title", "Oi", "--token", setup.secret, "--agendar", "sexta às 5"], {}, 'Data de agendamento inválida: "sexta às 5"'],
      [["send", "--title", "Oi", "--token", setup.secret, "--action", "Ver mapa"], {}, 'Botão de ação inválido: "Ver mapa"'],
      [["send", "--title", "Oi", "--token", setup.secret, "--data", "{tela}"], {}, "Os dados de --data não são JSON válido: {tela}"],
    ] as const) {
      process.exitCode = undefined;
      const io = captureIo({ ...env });
      await runCli([...args], io);
      expect(process.exitCode).toBe(2);
      expect(io.err.join("")).toContain(first);
    }
  });

  it("works as a real process, as a script runs it", async () => {
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", "tsx", "src/cli/main.ts", "send", "--server", setup.server.url, "--title", "Do processo"],
        { env: { ...process.env, SINO_TOKEN: setup.secret }, encoding: "utf8" },
        (_error, stdout) => resolve({ code: child.exitCode, stdout }),
      );
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Envio \d+ criado: sem destinatários; nenhum assinante para receber\.\n$/);
  });
});
