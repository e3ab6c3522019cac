/**
 * Everything the `sino` process prints is pt-BR from the catalog, help and Commander's own parsing
 * errors included, each error with its reason, exit code 2 and the command's usage line; flags are
 * English (`--channel`, `--schedule`) with the first version's Portuguese spellings kept as hidden
 * aliases. Real processes, as a script or a person at a terminal runs them.
 */
import { execFile } from "node:child_process";
import { beforeAll, describe, expect, it } from "vitest";
import { addToken } from "../../test/support/operators.js";
import { usePublishingServer } from "../../test/support/publishing-server.js";
import { ptBR } from "../shared/i18n/catalog.js";

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function sino(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], { env: { ...process.env, ...env }, encoding: "utf8" }, (_error, stdout, stderr) =>
      resolve({ code: child.exitCode, stdout, stderr }),
    );
  });
}

/** Words Commander prints in English; none may reach the user. */
const ENGLISH = /\b(error|usage|options|command|unknown|missing|required|argument|expected|Did you mean|display help)\b/i;

describe("the sino command's own output", () => {
  it("explains each parsing error in pt-BR with its reason, the usage line and exit code 2", async () => {
    const cases: Array<[string[], string]> = [
      [["foo"], "Erro: comando desconhecido: foo.\nUso: sino [opções] [comando]\nVeja a ajuda: sino --help\n"],
      [["sendd"], "Erro: comando desconhecido: sendd. Você quis dizer send?\nUso: sino [opções] [comando]\nVeja a ajuda: sino --help\n"],
      [["--bogus"], "Erro: opção desconhecida: --bogus.\nUso: sino [opções] [comando]\nVeja a ajuda: sino --help\n"],
      // Neither --title nor --template: the command says so itself (a template may give the title).
      [["send", "--body", "Sem título"], `Informe o título com --title ou um modelo com --template.\n${ptBR.cli.send.usage}\n`],
      [["send", "--title"], "Erro: a opção --title <título> precisa de um valor.\nUso: sino send --title <título> | --template <nome> [opções]\nVeja a ajuda: sino send --help\n"],
      [["send", "--title", "Oi", "--canl", "obras"], "Erro: opção desconhecida: --canl. Você quis dizer --channel?\nUso: sino send --title <título> | --template <nome> [opções]\nVeja a ajuda: sino send --help\n"],
      [["migrate", "agora"], "Erro: este comando não aceita argumentos (recebeu 1).\nUso: sino migrate [opções]\nVeja a ajuda: sino migrate --help\n"],
      [["tags", "set", "ana"], "Erro: falta o argumento obrigatório etiquetas.\nUso: sino tags set [opções] <userId> <etiquetas...>\nVeja a ajuda: sino tags set --help\n"],
      [["admin", "create", "--name", "Ana"], "Erro: falta a opção obrigatória --email <e-mail>.\nUso: sino admin create --email <e-mail> --name <nome> [--password-stdin]\nVeja a ajuda: sino admin create --help\n"],
    ];
    for (const [args, stderr] of cases) expect({ args, ...(await sino(args)) }).toEqual({ args, code: 2, stdout: "", stderr });
  }, 180_000);

  it("prints help in pt-BR, for the program and each command, without the hidden aliases", async () => {
    const top = await sino(["--help"]);
    const send = await sino(["send", "--help"]);
    const admin = await sino(["admin"]);
    const helpSend = await sino(["help", "send"]);
    const tags = await sino(["tags", "--help"]);
    const tagsSet = await sino(["tags", "set", "--help"]);
    const segments = await sino(["segments", "create", "--help"]);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain("Uso: sino [opções] [comando]\n");
    expect(top.stdout).toContain("  send [opções]");
    // (The column is as wide as the longest command line, e.g. "restore [opções] <arquivo>".)
    expect(top.stdout).toMatch(/^ {2}help \[comando\] +mostra a ajuda de um comando$/m);
    expect(top.stdout).toMatch(/^ {2}segments +Consulta e salva segmentos/m);
    expect(send.code).toBe(0);
    expect(send.stdout).toContain("Uso: sino send --title <título> | --template <nome> [opções]");
    for (const flag of ["--title <título>", "--template <nome>", "--channel <canal>", "--user <id>", "--segment <id|nome>", "--segment-expr <expressão>", "--category <categoria>", "--schedule <data>"]) {
      expect(send.stdout).toContain(flag);
    }
    expect(send.stdout).toMatch(/^ {2}-h, --help +mostra a ajuda do comando$/m);
    expect(send.stdout).not.toMatch(/--canal|--agendar/);
    expect(helpSend).toEqual(send);
    expect(top.stdout).toMatch(/^ {2}tags +Mostra e altera as etiquetas confiáveis/m);
    expect(tags.code).toBe(0);
    for (const line of ["show [opções] <userId>", "set [opções] <userId> <etiquetas...>", "rm [opções] <userId> <chaves...>"]) expect(tags.stdout).toContain(line);
    expect(tagsSet.stdout).toContain("Uso: sino tags set [opções] <userId> <etiquetas...>");
    expect(tagsSet.stdout).toContain("--token <token>  token de API com escopo Administrar, admin");
    // A command that needs a subcommand shows its help on stderr, as a usage error.
    expect(admin.code).toBe(2);
    expect(admin.stderr).toContain("Uso: sino admin [opções] [comando]");
    expect(segments.code).toBe(0);
    expect(segments.stdout).toContain("Uso: sino segments create --name <nome> [opções] <expressão>");
    for (const run of [top, send, admin, tags, tagsSet, segments]) expect(`${run.stdout}${run.stderr}`).not.toMatch(ENGLISH);
  }, 120_000);
});

describe("sino send flags against a real server", () => {
  const setup = usePublishingServer();
  beforeAll(async () => {
    expect((await setup.admin.post("/api/v1/channels", { slug: "obras", name: "Obras" })).status).toBe(201);
  });

  it("takes --channel and --schedule, and still the Portuguese --canal and --agendar", async () => {
    const day = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const env = { SINO_TOKEN: setup.secret };
    const [english, portuguese] = await Promise.all([
      sino(["send", "--server", setup.server.url, "--title", "Em inglês", "--channel", "obras", "--schedule", `${day} 18:00`], env),
      sino(["send", "--server", setup.server.url, "--title", "Em português", "--canal", "obras", "--agendar", `${day} 19:00`], env),
    ]);
    for (const [run, hour] of [[english, 21], [portuguese, 22]] as const) {
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const id = /^Envio (\d+) agendado/.exec(run.stdout)?.[1];
      const read = await setup.admin.get(`/api/v1/notifications/${id}`);
      expect(read.body.notification).toMatchObject({ status: "scheduled", audience: { type: "channels", channels: ["obras"] }, sendAt: `${day}T${hour}:00:00.000Z` });
    }
  }, 120_000);

  it("shows the server's pt-BR refusal of a control character in the title (exit 1)", async () => {
    const run = await sino(["send", "--server", setup.server.url, "--title", "Sino\u001b[31m vermelho"], { SINO_TOKEN: setup.secret });
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toMatch(/^O servidor recusou o envio: O texto contém caracteres de controle .* \(text_control_characters\)\n$/);
  }, 60_000);

  it("sets, shows and removes a person's trusted tags with an admin token (sino tags)", async () => {
    const env = { SINO_TOKEN: (await addToken(setup.admin, "admin", "cli tags")).secret };
    const server = ["--server", setup.server.url];
    const set = await sino(["tags", "set", "ana souza", "plano=premium", "idade=30", "vip", ...server], env);
    expect(set).toEqual({ code: 0, stdout: "idade=30\nplano=premium\nvip\n", stderr: "" });
    expect((await setup.admin.get("/api/v1/people/ana%20souza/tags")).body.tags).toEqual({ idade: 30, plano: "premium", vip: true });
    const removed = await sino(["tags", "rm", "ana souza", "vip", "idade", ...server], env);
    expect(removed).toEqual({ code: 0, stdout: "plano=premium\n", stderr: "" });
    expect(await sino(["tags", "show", "ninguem", ...server], env)).toEqual({ code: 0, stdout: "ninguem não tem etiquetas.\n", stderr: "" });
    const refused = await sino(["tags", "set", "ana souza", "Plano=x", ...server], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^O servidor recusou: A chave de uma etiqueta .* \(tag_key_invalid\)\n$/);
    // A publish token may not: tags decide who receives what.
    expect((await sino(["tags", "show", "ana souza", ...server], { SINO_TOKEN: setup.secret })).code).toBe(1);
  }, 120_000);
});
